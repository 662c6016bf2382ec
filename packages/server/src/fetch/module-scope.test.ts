// createFetchHandler where a Cloudflare Worker calls it, at module scope: there a random value or a timer throws
// ("Disallowed operation called within global scope"), so making the handler must use neither.
import { afterEach, expect, it, vi } from 'vitest';
import { McpServer } from '../index.js';
import { createFetchHandler } from './handler.js';

afterEach(() => {
  vi.restoreAllMocks();
});

it('makes no random value and starts no timer until a request comes', async () => {
  const server = new McpServer({ name: 'module-scope', version: '1.0.0' });
  const forbidden = [
    vi.spyOn(crypto, 'randomUUID'),
    vi.spyOn(crypto, 'getRandomValues'),
    vi.spyOn(globalThis, 'setTimeout'),
    vi.spyOn(globalThis, 'setInterval'),
  ];
  const handler = createFetchHandler(server);
  for (const spy of forbidden) expect(spy).not.toHaveBeenCalled();
  vi.restoreAllMocks();
  await handler.close();
});

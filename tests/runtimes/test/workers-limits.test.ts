// What docs/runtimes.md says of Workers beyond the example, on workerd: a multi-round-trip call works on one
// isolate (its requestState sealed and opened there), and a schema that needs ajv is refused with a clear error.
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Launched, launch } from '../src/launch.mjs';

let worker: Launched;

beforeAll(async () => {
  worker = await launch('workers', { cwd: fileURLToPath(new URL('fixtures/workers/', import.meta.url)) });
});

afterAll(async () => {
  await worker?.stop();
});

it('answers a 2026-07-28 call that asks the client for input', async () => {
  const client = new Client(
    { name: 'runtimes-mrtr', version: '1.0.0' },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', async () => ({
    action: 'accept',
    content: { name: 'Grace' },
  }));
  await client.connect(new StreamableHTTPClientTransport(new URL(worker.url)));
  try {
    const result = await client.callTool({ name: 'ask', arguments: {} });
    expect((result.content as { text?: string }[])[0]?.text).toBe('Hello, Grace');
  } finally {
    await client.close();
  }
});

it('refuses a schema that needs the full validator, saying why', async () => {
  const answer = await fetch(new URL('/full-schema', worker.url));
  expect(await answer.text()).toMatch(
    /^inputSchema of tool "pick" .*the full JSON Schema validator \(ajv\) cannot be loaded on this runtime/,
  );
});

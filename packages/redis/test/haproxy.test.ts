/** The HAProxy test support itself: round robin without stickiness, and streams left open. */

import { createServer, type Server } from 'node:http';
import { type HaproxyProcess, startHaproxy } from '@entropic-mcp/test-kit/haproxy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const backends: Server[] = [];
let proxy: HaproxyProcess;

beforeAll(async () => {
  for (const name of ['a', 'b']) {
    const server = createServer((req, res) => {
      if (req.url === '/stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        setTimeout(() => res.end(`data: ${name}\n\n`), 1500);
        return;
      }
      res.end(name);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    backends.push(server);
  }
  proxy = await startHaproxy(backends.map((s) => (s.address() as { port: number }).port));
});

afterAll(async () => {
  await proxy?.stop();
  for (const server of backends) server.close();
});

describe('HAProxy in front of two backends', () => {
  it('alternates between them, also on one keep-alive connection', async () => {
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) seen.push(await (await fetch(`${proxy.url}/`)).text());
    expect(seen.filter((s) => s === 'a').length).toBe(3);
    expect(seen.filter((s) => s === 'b').length).toBe(3);
  });

  it('passes a slow event stream through', async () => {
    const body = await (await fetch(`${proxy.url}/stream`)).text();
    expect(body).toMatch(/^data: [ab]\n\n$/);
  });
});

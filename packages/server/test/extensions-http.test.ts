// The extension API over Streamable HTTP in 2026-07-28: Mcp-Name of a custom method, custom notifications.
import { waitFor } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it } from 'vitest';
import { startClosedAfterEach } from './support/http-helpers.js';
import { envelope } from './support/modern-envelope.js';
import { modernHeaders, postModern, resultOf } from './support/modern-wire.js';

const start = startClosedAfterEach();

describe('custom methods and notifications over modern HTTP', () => {
  it('check Mcp-Name against the field a method names, and deliver custom notifications to the core', async () => {
    const pings: number[] = [];
    const srv = await start({}, (server) => {
      server.addMethod({ method: 'acme/lookup', nameParam: 'key', scheduled: false }, (p) => ({
        value: `v:${p.key}`,
      }));
      server.addNotification(
        { method: 'acme/ping', params: { type: 'object', properties: { n: { type: 'number' } } } },
        (p) => {
          pings.push(p.n as number);
        },
      );
    });
    const body = { jsonrpc: '2.0', id: 1, method: 'acme/lookup', params: { key: 'k1', _meta: envelope() } };
    const ok = await postModern(srv.url, body, { ...modernHeaders(body), 'mcp-name': 'k1' });
    expect(resultOf(ok)).toMatchObject({ value: 'v:k1', resultType: 'complete' });
    const wrong = await postModern(srv.url, body, { ...modernHeaders(body), 'mcp-name': 'k2' });
    expect(wrong.status).toBe(400);
    expect(wrong.message?.error).toMatchObject({ code: -32020 });
    const missing = await postModern(srv.url, body, modernHeaders(body));
    expect(missing.message?.error).toMatchObject({ code: -32020 });

    const note = { jsonrpc: '2.0', method: 'acme/ping', params: { n: 3, _meta: envelope() } };
    const res = await fetch(srv.url, {
      method: 'POST',
      headers: modernHeaders(note),
      body: JSON.stringify(note),
    });
    expect(res.status).toBe(202);
    await waitFor(() => pings.length > 0, 'the notification to be handled');
    expect(pings).toEqual([3]);
  });
});

// Rate limits through the fetch handler, in memory, with a store that counts its calls: the core takes a token
// only for a request it routes (not for a 404 session, an unknown method, a request with no caller to tell
// apart), and a single request it refuses is still answered 429 when the store answers later (SSE responses); a
// session restored on a second process replays its initialize without taking a token.
import { waitFor } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it } from 'vitest';
import { INIT_BODY } from '../../test/support/http-helpers.js';
import { envelope, MODERN } from '../../test/support/modern-envelope.js';
import { modernHeaders } from '../../test/support/modern-wire.js';
import { text } from '../core/content.js';
import { MemoryRateLimitStore } from '../core/rate-limit/memory-store.js';
import type { RateLimitOptions, RateLimitStore, RateRule, RateVerdict } from '../core/rate-limit/types.js';
import { McpServer } from '../core/server.js';
import { MemoryMessageHub, MemorySessionRegistry } from '../http/index.js';
import type { McpHttpHandlerOptions } from '../http/options.js';
import { createFetchHandler } from './handler.js';

const URL = 'http://localhost/mcp';
const BOTH = 'application/json, text/event-stream';

/** The in-memory store, counting its takes; `later`: it answers after a macrotask, as a remote store would. */
class CountingStore implements RateLimitStore {
  /** On a clock that stands still: the waits are exact. */
  readonly #inner = new MemoryRateLimitStore({ clock: () => 1_000_000 });
  takes = 0;

  constructor(private readonly later = false) {}

  take(key: string, rule: Required<RateRule>): RateVerdict | Promise<RateVerdict> {
    this.takes++;
    const verdict = this.#inner.take(key, rule);
    return this.later ? new Promise((resolve) => setTimeout(() => resolve(verdict), 1)) : verdict;
  }
}

function handlerWith(rateLimits: RateLimitOptions, options: McpHttpHandlerOptions = {}) {
  const server = new McpServer({ name: 'rl', version: '1' }, { rateLimits });
  server.addTool({ name: 'echo' }, () => ({ content: [text('ok')] }));
  return createFetchHandler(server, options);
}

function post(
  handler: (r: Request) => Promise<Response>,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return handler(
    new Request(URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: BOTH, ...headers },
      body: JSON.stringify(body),
    }),
  );
}

const callEcho = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'echo', arguments: {} },
});

async function session(handler: (r: Request) => Promise<Response>): Promise<Record<string, string>> {
  const res = await post(handler, INIT_BODY);
  await res.text();
  expect(res.status).toBe(200);
  const headers = {
    'mcp-session-id': String(res.headers.get('mcp-session-id')),
    'mcp-protocol-version': '2025-11-25',
  };
  await (await post(handler, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).text();
  return headers;
}

describe('rate limits through the fetch handler', () => {
  it('a request for a session that is not here (404) takes no token', async () => {
    const store = new CountingStore();
    const handler = handlerWith({ default: { rate: 10 }, store });
    const res = await post(handler, callEcho(1), {
      'mcp-session-id': 'gone',
      'mcp-protocol-version': '2025-11-25',
    });
    expect(res.status).toBe(404);
    await res.text();
    expect(store.takes).toBe(0);
    await handler.close();
  });

  it('a request the server does not serve (an unknown method) takes no token, as over stdio', async () => {
    const store = new CountingStore();
    const handler = handlerWith({ default: { rate: 10 }, store });
    const headers = await session(handler);
    const before = store.takes;
    const res = await post(handler, { jsonrpc: '2.0', id: 5, method: 'no/such' }, headers);
    expect(await res.text()).toContain('-32601');
    expect(store.takes).toBe(before);
    // A routed request takes exactly one token: the core asks the store once.
    await (await post(handler, callEcho(6), headers)).text();
    expect(store.takes).toBe(before + 1);
    await handler.close();
  });

  it('a request with no principal, no session and no address is not limited: the store is never asked', async () => {
    const store = new CountingStore();
    const handler = handlerWith({ default: { rate: 1, burst: 1 }, store }, { stateless: true });
    for (let id = 1; id <= 3; id++) {
      const res = await post(handler, callEcho(id), { 'mcp-protocol-version': '2025-11-25' });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('"result"');
    }
    const modern = {
      ...callEcho(4),
      params: { name: 'echo', arguments: {}, _meta: envelope({}) },
    };
    const res = await post(handler, modern, modernHeaders(modern));
    expect(res.status).toBe(200);
    await res.text();
    expect(MODERN).toBe('2026-07-28');
    expect(store.takes).toBe(0);
    await handler.close();
  });

  it('an initialize over its limit leaves no record in the shared session registry', async () => {
    const saved: string[] = [];
    const registry = new (class extends MemorySessionRegistry {
      override save(...args: Parameters<MemorySessionRegistry['save']>): void {
        saved.push(args[0]);
        super.save(...args);
      }
    })();
    const hub = new MemoryMessageHub();
    const handler = handlerWith(
      { methods: { initialize: { rate: 1, burst: 1 } }, key: () => 'everyone' },
      { sharedSessions: { registry, router: hub.router('a') } },
    );
    const live = (await session(handler))['mcp-session-id'];
    expect((await post(handler, INIT_BODY)).status).toBe(429);
    expect(saved).toHaveLength(2);
    await waitFor(() => registry.load(saved[1] as string) === undefined, 'the refused session removed');
    expect(registry.load(live as string)).toBeDefined();
    await handler.close();
  });

  it('an initialize over its limit gets 429 and leaves no session behind', async () => {
    const handler = handlerWith({ methods: { initialize: { rate: 1, burst: 1 } }, key: () => 'everyone' });
    await session(handler);
    const refused = await post(handler, INIT_BODY);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('mcp-session-id')).toBeNull();
    expect(await refused.json()).toMatchObject({ id: 0, error: { code: -32029 } });
    expect(handler.sessionCount).toBe(1);
    await handler.close();
  });

  for (const enableJsonResponse of [false, true]) {
    it(`a store that answers later still turns a refusal into 429 (${enableJsonResponse ? 'JSON' : 'SSE'})`, async () => {
      const store = new CountingStore(true);
      const handler = handlerWith(
        { tools: { echo: { rate: 0.5, burst: 1 } }, store },
        { enableJsonResponse },
      );
      const headers = await session(handler);
      const first = await post(handler, callEcho(1), headers);
      expect(first.status).toBe(200);
      expect(await first.text()).toContain('"result"');
      const refused = await post(handler, callEcho(2), headers);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('2');
      expect(await refused.json()).toMatchObject({
        id: 2,
        error: { code: -32029, data: { retryAfterMs: 2000 } },
      });
      expect(store.takes).toBe(2);
      await handler.close();
    });
  }

  it('a session restored on another process replays its initialize without taking a token', async () => {
    // One store for both processes, as a shared Redis limiter is: the only initialize token is spent on `a`.
    const store = new CountingStore();
    const limits = { methods: { initialize: { rate: 1, burst: 1 } }, key: () => 'everyone', store };
    const registry = new MemorySessionRegistry();
    const hub = new MemoryMessageHub();
    const a = handlerWith(limits, { sharedSessions: { registry, router: hub.router('a') } });
    const b = handlerWith(limits, { sharedSessions: { registry, router: hub.router('b') } });
    const headers = await session(a);
    expect(store.takes).toBe(1);
    const res = await post(b, callEcho(1), headers);
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body, body).toContain('"text":"ok"');
    expect(store.takes).toBe(1);
    await a.close();
    await b.close();
  });
});

/**
 * Legacy sessions served by two handlers that share state, as one suite: the in-memory registry and
 * hub run it here, `@entropic-mcp/redis` runs it on a real Redis. The official v1 client sends every
 * request to the other handler in turn, as a round-robin load balancer without stickiness would.
 */

import { waitFor } from '@entropic-mcp/test-kit/wait';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerAuth } from '../../src/http/index.js';
import type { EventStore } from '../../src/http/state/event-store.js';
import type { SharedSessionState } from '../../src/http/state/shared-state.js';
import {
  BOTH,
  follow,
  openSession,
  post,
  sessionHeaders,
  sseDataEvents,
  sseMessages,
} from './http-helpers.js';
import { type Fixture, startFixture } from './http-interop-fixture.js';

export interface SharedNodes {
  /** The shared state as each of two processes sees it, and the event store they share. */
  readonly nodes: readonly [SharedSessionState, SharedSessionState];
  readonly eventStore: EventStore;
  close(): Promise<void>;
}

const text = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text;

export function sharedSessionSuite(name: string, make: () => Promise<SharedNodes>): void {
  describe(`${name}: one legacy session, two processes`, () => {
    let shared: SharedNodes;
    const fx: Fixture[] = [];
    let turn = 0;
    /** Sends each HTTP request to the next handler in turn. */
    const roundRobin = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const target = fx[turn++ % fx.length] as Fixture;
      const url = new URL(input instanceof Request ? input.url : String(input));
      return fetch(new URL(url.pathname, target.url), init);
    };

    beforeAll(async () => {
      shared = await make();
      for (const state of shared.nodes)
        fx.push(await startFixture({ sharedSessions: state, eventStore: shared.eventStore }));
    });

    afterAll(async () => {
      for (const f of fx) await f.close();
      await shared?.close();
    });

    it('lists, calls, elicits and cancels with every request on the other process', async () => {
      const client = new Client({ name: 'rr', version: '1.0.0' }, { capabilities: { elicitation: {} } });
      client.setRequestHandler(ElicitRequestSchema, async () => ({
        action: 'accept',
        content: { name: 'Ada' },
      }));
      let changed = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changed++;
      });
      const transport = new StreamableHTTPClientTransport(new URL((fx[0] as Fixture).url), {
        fetch: roundRobin,
      });
      await client.connect(transport);
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).toContain('ask_name');
        for (let i = 0; i < 4; i++) {
          const echoed = await client.callTool({ name: 'echo', arguments: { text: `n${i}` } });
          expect(text(echoed)).toBe(`n${i}`);
        }
        // The elicitation leaves on the stream of the process running the tool; the answer is POSTed
        // to the other one.
        for (let i = 0; i < 2; i++)
          expect(text(await client.callTool({ name: 'ask_name' }))).toBe('Hello, Ada');

        // A hung call cancelled through the other process.
        const before = fx.map((f) => f.cancelled.length);
        const aborter = new AbortController();
        const call = client.callTool({ name: 'wait' }, CallToolResultSchema, { signal: aborter.signal });
        await waitFor(() => fx.some((f) => f.waiting.length > 0), 'the wait tool to start');
        aborter.abort('enough');
        await expect(call).rejects.toThrow();
        await waitFor(
          () => fx.some((f, i) => f.cancelled.length > (before[i] ?? 0)),
          'the running call to see its cancellation',
        );

        // A list change raised on each process reaches the client's one GET stream.
        for (const f of fx) f.mcp.notifyToolsChanged();
        await waitFor(() => changed >= 2, 'both list changes');
      } finally {
        await transport.terminateSession();
        await client.close();
      }
    });

    it('resumes a GET stream of one process on the other with Last-Event-ID', async () => {
      const [a, b] = fx as [Fixture, Fixture];
      const session = await openSession(a.url);
      const headers = sessionHeaders(session);
      await (await post(b.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).text();
      const stop = new AbortController();
      const get = await fetch(a.url, { headers: { ...headers, accept: BOTH }, signal: stop.signal });
      const reader = (get.body as ReadableStream<Uint8Array>).getReader();
      let seen = '';
      const decoder = new TextDecoder();
      const readUntil = async (count: number) => {
        while (sseDataEvents(seen).length < count) {
          const { value, done } = await reader.read();
          if (done) break;
          seen += decoder.decode(value, { stream: true });
        }
      };
      await waitFor(() => a.handler.session(session)?.standaloneConnected === true, 'the GET stream');
      a.mcp.notifyToolsChanged();
      b.mcp.notifyToolsChanged(); // raised where the stream is not: routed to a
      await readUntil(2);
      const live = sseDataEvents(seen);
      expect(live).toHaveLength(2);
      stop.abort();
      a.mcp.notifyPromptsChanged(); // missed: nobody is connected
      await waitFor(
        async () =>
          ((await shared.eventStore.after(live[1]?.id as string))?.events ?? []).some((e) =>
            e.data.includes('notifications/prompts/list_changed'),
          ),
        'the missed list change in the event store',
      );
      const resumed = await fetch(b.url, {
        headers: { ...headers, accept: BOTH, 'last-event-id': live[1]?.id as string },
      });
      expect(resumed.status).toBe(200);
      const reader2 = (resumed.body as ReadableStream<Uint8Array>).getReader();
      const { value } = await reader2.read();
      const events = sseMessages(decoder.decode(value));
      await reader2.cancel();
      expect(events.map((m) => m.method)).toEqual(['notifications/prompts/list_changed']);
      const gone = await fetch(b.url, { method: 'DELETE', headers });
      expect(gone.status).toBe(200);
      const after = await post(a.url, { jsonrpc: '2.0', id: 5, method: 'tools/list' }, headers);
      expect(after.status).toBe(404);
    });

    it('a resumption on the other process takes the GET stream over: the old connection ends, its messages follow', async () => {
      const [a, b] = fx as [Fixture, Fixture];
      const session = await openSession(a.url);
      const headers = sessionHeaders(session);
      await (await post(a.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).text();
      await (await post(b.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers)).text();
      const methods = (text: string) => sseMessages(text).map((m) => m.method);
      const old = follow(await fetch(a.url, { headers: { ...headers, accept: BOTH } }));
      await waitFor(() => a.handler.session(session)?.standaloneConnected === true, 'the GET stream on a');
      a.mcp.notifyToolsChanged();
      await waitFor(() => methods(old.text()).length === 1, 'the first message on a');
      const through = sseDataEvents(old.text()).at(-1)?.id as string;
      // The client resumes on b while a's connection still looks alive to a (as behind a proxy).
      const fresh = follow(
        await fetch(b.url, { headers: { ...headers, accept: BOTH, 'last-event-id': through } }),
      );
      let ended = false;
      void old.done.then(() => {
        ended = true;
      });
      await waitFor(() => ended, 'a to let its connection go');
      a.mcp.notifyPromptsChanged(); // raised by the old holder: it reaches the live stream on b
      await waitFor(
        () => methods(fresh.text()).includes('notifications/prompts/list_changed'),
        'the message on b',
      );
      expect(methods(old.text())).toEqual(['notifications/tools/list_changed']);
      const holder = await shared.nodes[0].registry.holder?.(session);
      if (holder !== undefined) expect(holder).toBe(b.handler.session(session)?.standaloneId);
      await fetch(b.url, { method: 'DELETE', headers });
    });

    it('keeps the newest claim on a GET stream, whatever order the claims arrive in', async () => {
      const registry = shared.nodes[0].registry;
      if (registry.setHolder === undefined || registry.holder === undefined) return;
      const session = await openSession((fx[0] as Fixture).url);
      await registry.setHolder(session, `${session}.b-g0`, 2000);
      await registry.setHolder(session, `${session}.a-g0`, 1000); // older, arriving later
      expect(await registry.holder(session)).toBe(`${session}.b-g0`);
      await registry.setHolder(session, `${session}.a-g1`, 3000);
      expect(await registry.holder(session)).toBe(`${session}.a-g1`);
      await registry.setHolder('no-such-session', 'no-such-session.a-g0', 1);
      expect(await registry.holder('no-such-session')).toBeUndefined();
    });

    it('serves a session that no process holds from the registry, and says 404 for an unknown one', async () => {
      const [a, b] = fx as [Fixture, Fixture];
      const session = await openSession(a.url);
      await a.handler.session(session)?.close(false); // as if its process had gone
      const headers = sessionHeaders(session);
      const listed = await post(b.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers);
      expect(listed.status).toBe(200);
      expect(await listed.text()).toContain('ask_name');
      const unknown = { ...headers, 'mcp-session-id': 'no-such-session' };
      expect((await post(b.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, unknown)).status).toBe(404);
    });

    it('restores a session only for the principal that opened it', async () => {
      const [owner, other] = ['owner-token-0123456789abcdef', 'other-token-0123456789abcdef'];
      const auth = bearerAuth({ tokens: [owner, other] });
      const [a, b] = [
        await startFixture({ sharedSessions: shared.nodes[0], eventStore: shared.eventStore, auth }),
        await startFixture({ sharedSessions: shared.nodes[1], eventStore: shared.eventStore, auth }),
      ];
      try {
        const session = await openSession(a.url, { authorization: `Bearer ${owner}` });
        const as = (token: string) => ({ authorization: `Bearer ${token}`, ...sessionHeaders(session) });
        const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
        // b never held the session: the other token asks first, and b must not serve it a copy.
        expect((await post(b.url, ping, as(other))).status).toBe(404);
        const get = await fetch(b.url, { headers: { ...as(other), accept: 'text/event-stream' } });
        expect(get.status).toBe(404);
        await get.text();
        expect((await fetch(b.url, { method: 'DELETE', headers: as(other) })).status).toBe(404);
        expect(b.handler.session(session)).toBeUndefined();
        const served = await post(b.url, ping, as(owner));
        expect(served.status).toBe(200);
        await served.text();
        expect((await post(b.url, ping, as(other))).status).toBe(404);
        expect((await fetch(b.url, { method: 'DELETE', headers: as(owner) })).status).toBe(200);
      } finally {
        await a.close();
        await b.close();
      }
    });
  });
}

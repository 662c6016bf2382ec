/**
 * Stopping the HTTP endpoint gracefully (`close({ graceMs })`), over real HTTP: the readiness check
 * fails at once, new work is refused with 503 and Retry-After while what finishes work in flight is
 * served, calls that end within the grace are answered and the others get `Request lost`, tasks fail
 * saying the server shut down, and no event log is deleted. And how a 2026-07-28 client whose call's
 * stream broke learns the outcome with the stream's event id.
 */

import { waitFor } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it } from 'vitest';
import { MemoryEventStore } from '../src/http/index.js';
import { text } from '../src/index.js';
import {
  callEcho,
  follow,
  initSession,
  post,
  responseOf,
  sessionHeaders,
  sseMessages,
  startClosedAfterEach,
} from './support/http-helpers.js';
import { envelope, MODERN } from './support/modern-envelope.js';

const start = startClosedAfterEach();
const LOST_ON_STOP =
  /^Request lost: the server process that was serving it \(.+\) shut down before it finished/;
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

/** Releases for the `wait` tool's calls, by their `key` argument. */
const waiting = new Map<string, () => void>();
/** The `key`s of the `wait` calls that were stopped. */
const stopped = new Set<string>();

function setup(server: Parameters<NonNullable<Parameters<typeof start>[1]>>[0]): void {
  waiting.clear(); // a test run again starts afresh
  stopped.clear();
  server.addTool({ name: 'wait' }, (args, ctx) => {
    ctx.progress(1);
    return new Promise((resolve, reject) => {
      waiting.set(String(args.key), () => resolve({ content: [text(`done ${String(args.key)}`)] }));
      ctx.onAbort(() => {
        stopped.add(String(args.key));
        reject(new Error('stopped'));
      });
    });
  });
  server.addTool({ name: 'hold', execution: { taskSupport: 'optional' } }, (_args, ctx) => {
    return new Promise((_resolve, reject) => ctx.onAbort(() => reject(new Error('stopped'))));
  });
}

/** A 2026-07-28 request (`progress`: with a progress token, so that it answers on a stream). */
function modern(url: string, id: number, name: string, args: Record<string, unknown>, progress = false) {
  const meta = { ...envelope(TASKS), ...(progress ? { progressToken: `p${id}` } : {}) };
  return post(
    url,
    { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: meta } },
    { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name },
  );
}

/** A legacy call in `session`, with a progress token (its answer travels on an SSE stream). */
function legacyCall(url: string, session: string, id: number, name: string, args: Record<string, unknown>) {
  const params = { name, arguments: args, _meta: { progressToken: `p${id}` } };
  return post(url, { jsonrpc: '2.0', id, method: 'tools/call', params }, sessionHeaders(session));
}

const healthOf = async (url: string) => (await fetch(url.replace(/\/mcp$/, '/healthz'))).status;

/** The event id of the priming event a streamed answer starts with. */
async function primingOf(stream: ReturnType<typeof follow>): Promise<string> {
  await waitFor(() => /^id: (\S+)\ndata: \n\n/.test(stream.text()), 'a priming event');
  return /^id: (\S+)/.exec(stream.text())?.[1] as string;
}

describe('close({ graceMs }) drains', () => {
  it('fails the health check and refuses new work at once; calls get the grace, then Request lost', async () => {
    const srv = await start({}, setup);
    expect(await healthOf(srv.url)).toBe(200);
    const session = await initSession(srv.url);
    const streams = {
      quick: follow(await legacyCall(srv.url, session, 1, 'wait', { key: 'quick' })),
      slow: follow(await legacyCall(srv.url, session, 2, 'wait', { key: 'slow' })),
      modern: follow(await modern(srv.url, 3, 'wait', { key: 'modern' }, true)),
    };
    const modernJson = modern(srv.url, 4, 'wait', { key: 'json' }); // no progress: answered as JSON
    await waitFor(() => ['quick', 'slow', 'modern', 'json'].every((k) => waiting.has(k)), 'the calls to run');
    const closing = Date.now();
    const closed = srv.close({ graceMs: 1500 });
    expect(srv.handler.draining).toBe(true);
    expect(await healthOf(srv.url)).toBe(503);
    for (const refused of [
      await post(srv.url, { ...callEcho(9, 'x') }, sessionHeaders(session)),
      await modern(srv.url, 10, 'wait', { key: 'late' }),
      await fetch(srv.url, { headers: { accept: 'text/event-stream', ...sessionHeaders(session) } }),
    ]) {
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      const body = (await refused.json()) as { error: { message: string } };
      expect(body.error.message).toMatch(/shutting down and takes no new work/);
    }
    // What finishes work in flight is still taken: a notification of the session, for one.
    const note = await post(
      srv.url,
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      sessionHeaders(session),
    );
    expect(note.status).toBe(202);
    waiting.get('quick')?.();
    await streams.quick.done;
    expect(sseMessages(streams.quick.text()).at(-1)).toMatchObject({
      id: 1,
      result: { content: [{ text: 'done quick' }] },
    });
    await closed;
    // The grace was waited out for the others (a bound a loaded machine can only exceed).
    expect(Date.now() - closing).toBeGreaterThanOrEqual(1490);
    await Promise.all([streams.slow.done, streams.modern.done]);
    for (const [stream, id] of [
      [streams.slow, 2],
      [streams.modern, 3],
    ] as const) {
      const answer = sseMessages(stream.text()).at(-1) as {
        id: number;
        error: { code: number; message: string };
      };
      expect(answer.id).toBe(id);
      expect(answer.error.code).toBe(-32000);
      expect(answer.error.message).toMatch(LOST_ON_STOP);
    }
    const json = await responseOf(await modernJson);
    expect((json.error as { message: string }).message).toMatch(LOST_ON_STOP);
  });

  it('lets tasks run for the grace, then fails them, saying the server shut down', async () => {
    const srv = await start({}, setup);
    const made = await responseOf(await modern(srv.url, 1, 'hold', {}));
    const taskId = (made.result as { taskId: string }).taskId;
    expect(srv.mcp.runningTasks).toBe(1);
    const closed = srv.close({ graceMs: 300 });
    // The task methods are still served while draining.
    const polled = await post(
      srv.url,
      { jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { taskId, _meta: envelope(TASKS) } },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tasks/get', 'mcp-name': taskId },
    );
    expect((await responseOf(polled)).result).toMatchObject({ taskId, status: 'working' });
    await closed;
    const stored = (await srv.mcp.tasks?.store.read(taskId))?.task;
    expect(stored).toMatchObject({ status: 'failed' });
    expect(stored?.statusMessage).toMatch(/the server shut down before the task finished/);
    expect(srv.mcp.runningTasks).toBe(0);
  });

  it('deletes no event log (DELETE still does)', async () => {
    let forgotten = 0;
    class CountingStore extends MemoryEventStore {
      override forget(prefix: string): void {
        forgotten++;
        super.forget(prefix);
      }
    }
    const srv = await start({ eventStore: new CountingStore() }, setup);
    const ended = await initSession(srv.url);
    await (await fetch(srv.url, { method: 'DELETE', headers: sessionHeaders(ended) })).text();
    expect(forgotten).toBe(1);
    const kept = await initSession(srv.url);
    await responseOf(await post(srv.url, callEcho(1, 'a'), sessionHeaders(kept)));
    await srv.close({ graceMs: 100 });
    expect(forgotten).toBe(1);
  });
});

describe('a 2026-07-28 call whose stream broke: its event id tells the outcome', () => {
  it('a client back with the id gets the rest of a running call on the new connection', async () => {
    const srv = await start({}, setup);
    const first = follow(await modern(srv.url, 1, 'wait', { key: 'resumed' }, true));
    const token = await primingOf(first);
    expect(token).toMatch(/^call\./);
    const again = follow(
      await fetch(srv.url, { headers: { accept: 'text/event-stream', 'last-event-id': token } }),
    );
    await primingOf(again);
    await first.done; // the old connection is let go
    waiting.get('resumed')?.();
    await again.done;
    expect(sseMessages(again.text()).at(-1)).toMatchObject({
      id: 1,
      result: { content: [{ text: 'done resumed' }] },
    });
    expect(sseMessages(first.text()).some((m) => 'result' in m)).toBe(false);
  });

  it('the answer is given again for a minute; a stopped call and an unknown process are Request lost', async () => {
    const srv = await start({}, setup);
    const answered = follow(await modern(srv.url, 1, 'wait', { key: 'twice' }, true));
    const token = await primingOf(answered);
    waiting.get('twice')?.();
    await answered.done;
    const ask = async (id: string) =>
      sseMessages(
        await (
          await fetch(srv.url, { headers: { accept: 'text/event-stream', 'last-event-id': id } })
        ).text(),
      );
    expect((await ask(token)).at(-1)).toMatchObject({ id: 1, result: { content: [{ text: 'done twice' }] } });

    // The client left: the call is stopped, and so reported.
    const left = follow(await modern(srv.url, 2, 'wait', { key: 'left' }, true));
    const leftToken = await primingOf(left);
    left.stop();
    await waitFor(() => stopped.has('left'), 'the call to stop when its client left');
    expect((await ask(leftToken)).at(-1)).toMatchObject({
      id: 2,
      error: { code: -32000, message: expect.stringMatching(/lost the connection carrying it/) },
    });
    // A process that is not this one, with no shared state: it is gone.
    const other = leftToken.replace(/^call\.[^.]+\./, 'call.elsewhere.');
    expect((await ask(other)).at(-1)).toMatchObject({
      id: 2,
      error: { message: expect.stringMatching(/\(elsewhere\) is gone/) },
    });
  });
});

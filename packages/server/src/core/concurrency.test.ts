// Tests of bounded handler concurrency and the queue limit.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { holdFor, nextTurn, quietPeriod, waitFor } from '@entropic-mcp/test-kit/wait';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initializedPeer } from '../../test/support/in-memory.js';
import { text } from './content.js';
import { McpServer } from './server.js';

/** A server whose `gate` tool waits until released, recording start order and peak concurrency. */
function gated(options: ConstructorParameters<typeof McpServer>[1]) {
  const server = new McpServer({ name: 'c', version: '1' }, options);
  const started: number[] = [];
  const releases: (() => void)[] = [];
  let running = 0;
  let peak = 0;
  server.addTool({ name: 'gate' }, async (args) => {
    started.push(args.i as number);
    running++;
    peak = Math.max(peak, running);
    await new Promise<void>((resolve) => releases.push(resolve));
    running--;
    return { content: [text(String(args.i))] };
  });
  server.addTool({ name: 'sleepy' }, async (args, ctx) => {
    await holdFor(args.ms as number); // a handler that is slow on purpose
    return { content: [text(ctx.signal.aborted ? 'aborted' : 'done')] };
  });
  return {
    server,
    started,
    get peak() {
      return peak;
    },
    releaseAll: () => {
      for (const release of releases.splice(0)) release();
    },
  };
}

/** Lets go of every waiting handler until `n` have started (the rest start as slots free up). */
const releaseUntil = (g: ReturnType<typeof gated>, n: number) =>
  waitFor(() => {
    g.releaseAll();
    return g.started.length >= n;
  }, `${n} handlers to start`);

describe('bounded concurrency', () => {
  it('runs at most 4 handlers by default and starts the rest in FIFO order', async () => {
    const g = gated({});
    const { peer } = await initializedPeer(g.server);
    const calls = Array.from({ length: 10 }, (_, i) =>
      peer.request('tools/call', { name: 'gate', arguments: { i } }),
    );
    await waitFor(() => g.started.length === 4, 'four handlers to start');
    await quietPeriod(20); // a fifth must not start while four run
    expect(g.started).toEqual([0, 1, 2, 3]);
    // Built-in methods are not queued behind busy handlers.
    expect(await peer.call('ping')).toEqual({});
    expect((await peer.call('tools/list')).tools).toHaveLength(2);
    await releaseUntil(g, 10);
    g.releaseAll();
    const answers = await Promise.all(calls);
    expect(g.started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(g.peak).toBe(4);
    expect(answers.every((a) => a.result !== undefined)).toBe(true);
  });

  it('refuses requests beyond maxQueued with a clear -32000 error', async () => {
    const g = gated({ maxConcurrency: 1, maxQueued: 2 });
    const { peer } = await initializedPeer(g.server);
    const calls = Array.from({ length: 3 }, (_, i) =>
      peer.request('tools/call', { name: 'gate', arguments: { i } }),
    );
    await waitFor(() => g.started.length === 1, 'the first handler to start');
    const refused = await peer.request('tools/call', { name: 'gate', arguments: { i: 99 } });
    expect(refused.error).toMatchObject({ code: -32000, message: expect.stringContaining('maxQueued') });
    await releaseUntil(g, 3);
    g.releaseAll();
    expect((await Promise.all(calls)).every((a) => a.result !== undefined)).toBe(true);
  });

  it('cancelling a queued request removes it without running it', async () => {
    const g = gated({ maxConcurrency: 1 });
    const { peer } = await initializedPeer(g.server);
    const first = peer.request('tools/call', { name: 'gate', arguments: { i: 0 } }, 'a');
    void peer.request('tools/call', { name: 'gate', arguments: { i: 1 } }, 'b');
    const third = peer.request('tools/call', { name: 'gate', arguments: { i: 2 } }, 'c');
    await waitFor(() => g.started.length === 1, 'the first handler to start');
    await peer.notify('notifications/cancelled', { requestId: 'b' });
    await peer.call('ping'); // answered after the cancellation was read: messages are read in order
    g.releaseAll();
    await first;
    await waitFor(() => g.started.length === 2, 'the third handler to start');
    g.releaseAll();
    await third;
    expect(g.started).toEqual([0, 2]);
  });
});

describe('handler timeout (fake time)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const fake = () =>
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
      now: 0,
    });

  it('aborts the signal and answers -32001 after handlerTimeoutMs; the late result is dropped', async () => {
    fake();
    const g = gated({ handlerTimeoutMs: 50 });
    const { peer } = await initializedPeer(g.server);
    const answer = peer.request('tools/call', { name: 'sleepy', arguments: { ms: 200 } });
    let settled = false;
    void answer.then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(50);
    expect(settled).toBe(false); // not before the timeout
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
    const { error, id } = await answer;
    expect(error).toMatchObject({ code: -32001, message: 'tools/call timed out after 50 ms' });
    await vi.advanceTimersByTimeAsync(200); // the handler ends; its result goes nowhere
    expect(peer.received.filter((m) => m.id === id)).toHaveLength(1);
  });

  it('frees the slot of a timed-out handler', async () => {
    fake();
    const g = gated({ handlerTimeoutMs: 40, maxConcurrency: 1 });
    const { peer } = await initializedPeer(g.server);
    const stuck = peer.request('tools/call', { name: 'gate', arguments: { i: 0 } });
    await vi.advanceTimersByTimeAsync(41);
    expect((await stuck).error).toMatchObject({ code: -32001 });
    const next = peer.request('tools/call', { name: 'sleepy', arguments: { ms: 1 } });
    await vi.advanceTimersByTimeAsync(1);
    expect((await next).result).toEqual({ content: [{ type: 'text', text: 'done' }] });
    g.releaseAll();
  });

  it('times out queued handlers one after another as each gets its slot', async () => {
    fake();
    const g = gated({ handlerTimeoutMs: 40, maxConcurrency: 1 });
    const { peer } = await initializedPeer(g.server);
    const at: number[] = [];
    const answers = Promise.all(
      [0, 1, 2].map((i) =>
        peer.request('tools/call', { name: 'gate', arguments: { i } }).then((a) => {
          at.push(Date.now());
          return a;
        }),
      ),
    );
    await vi.advanceTimersByTimeAsync(200);
    expect((await answers).map((a) => (a.error as { code: number }).code)).toEqual([-32001, -32001, -32001]);
    expect(g.started).toEqual([0, 1, 2]);
    expect(at).toEqual([41, 82, 123]); // each started when the one before timed out, with 40 ms of its own
    g.releaseAll();
  });

  it('0 turns the timeout off', async () => {
    fake();
    const g = gated({ handlerTimeoutMs: 0 });
    const { peer } = await initializedPeer(g.server);
    const answer = peer.request('tools/call', { name: 'sleepy', arguments: { ms: 600_000 } });
    await vi.advanceTimersByTimeAsync(600_000);
    expect((await answer).result).toEqual({ content: [{ type: 'text', text: 'done' }] });
  });
});

describe('cancellation and progress', () => {
  it('notifications/cancelled aborts ctx.signal with the reason and suppresses the response', async () => {
    const server = new McpServer({ name: 'c', version: '1' });
    let reason: unknown;
    let started = false;
    server.addTool({ name: 'wait' }, (_a, ctx) => {
      started = true;
      return new Promise((resolve) => {
        ctx.signal.addEventListener('abort', () => {
          reason = ctx.signal.reason;
          resolve({ content: [text('late')] });
        });
      });
    });
    const { peer } = await initializedPeer(server);
    void peer.request('tools/call', { name: 'wait' }, 'w');
    await waitFor(() => started, 'the handler to start');
    await peer.notify('notifications/cancelled', { requestId: 'w', reason: 'user hit stop' });
    await waitFor(() => reason !== undefined, 'the signal to abort');
    await peer.call('ping'); // the late answer, had it been sent, is in before this one
    expect(reason).toBe('user hit stop');
    expect(peer.received.filter((m) => m.id === 'w')).toHaveLength(0);
  });

  it('ctx.onAbort hears a cancellation without a signal, and at once when registered after it', async () => {
    const server = new McpServer({ name: 'c', version: '1' });
    const heard: string[] = [];
    let started = false;
    let ended = false;
    server.addTool({ name: 'hooked' }, (_a, ctx) => {
      started = true;
      return new Promise((resolve) => {
        ctx.onAbort(() => {
          heard.push('early');
          setTimeout(() => {
            ctx.onAbort(() => heard.push('late'));
            resolve({ content: [] });
            ended = true;
          }, 5);
        });
      });
    });
    const { peer } = await initializedPeer(server);
    void peer.request('tools/call', { name: 'hooked' }, 'h');
    await waitFor(() => started, 'the handler to start');
    await peer.notify('notifications/cancelled', { requestId: 'h' });
    await waitFor(() => ended, 'the handler to end');
    await peer.call('ping'); // the late answer, had it been sent, is in before this one
    expect(heard).toEqual(['early', 'late']);
    expect(peer.received.filter((m) => m.id === 'h')).toHaveLength(0);
  });

  it('a request that answered lets go of its abort hook, though its context is still held', async () => {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const server = new McpServer({ name: 'c', version: '1' });
    let held: unknown;
    let hookRef: WeakRef<object> | undefined;
    server.addTool({ name: 'hooked' }, (_a, ctx) => {
      held = ctx;
      const hook = () => {};
      hookRef = new WeakRef(hook);
      ctx.onAbort(hook);
      return Promise.resolve({ content: [] });
    });
    const { peer } = await initializedPeer(server);
    await peer.call('tools/call', { name: 'hooked' });
    await nextTurn();
    // A hook handed over after the answer is not kept either.
    let late: WeakRef<object> | undefined;
    (() => {
      const hook = () => {};
      late = new WeakRef(hook);
      (held as { onAbort(h: () => void): void }).onAbort(hook);
    })();
    await nextTurn(); // a WeakRef's target lives to the end of the job that made it
    collect();
    expect(held).toBeDefined();
    expect(hookRef?.deref()).toBeUndefined();
    expect(late?.deref()).toBeUndefined();
  });

  it('a signal first read after cancellation is already aborted', async () => {
    const server = new McpServer({ name: 'c', version: '1' });
    let aborted: boolean | undefined;
    let started = false;
    let read: () => void = () => {};
    server.addTool({ name: 'late_reader' }, async (_a, ctx) => {
      started = true;
      await new Promise<void>((go) => {
        read = go;
      });
      aborted = ctx.signal.aborted;
      return { content: [] };
    });
    const { peer } = await initializedPeer(server);
    void peer.request('tools/call', { name: 'late_reader' }, 'l');
    await waitFor(() => started, 'the handler to start');
    await peer.notify('notifications/cancelled', { requestId: 'l' });
    await peer.call('ping'); // the cancellation was read before this answer
    read();
    await waitFor(() => aborted !== undefined, 'the handler to read its signal');
    expect(aborted).toBe(true);
  });

  it('progress is sent only with a progressToken and only when it increases', async () => {
    const server = new McpServer({ name: 'c', version: '1' });
    server.addTool({ name: 'p' }, (_a, ctx) => {
      ctx.progress(1, 10);
      ctx.progress(1, 10);
      ctx.progress(0.5);
      ctx.progress(5, 10, 'half');
      return { content: [] };
    });
    const { peer } = await initializedPeer(server);
    await peer.call('tools/call', { name: 'p' });
    expect(peer.notifications.filter((m) => m.method === 'notifications/progress')).toHaveLength(0);
    await peer.call('tools/call', { name: 'p', _meta: { progressToken: 7 } });
    const progress = peer.notifications
      .filter((m) => m.method === 'notifications/progress')
      .map((m) => m.params);
    expect(progress).toEqual([
      { progressToken: 7, progress: 1, total: 10 },
      { progressToken: 7, progress: 5, total: 10, message: 'half' },
    ]);
  });
});

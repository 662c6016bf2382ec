// How the isolated mode groups calls into bursts: a burst leaves as soon as it holds EARLY_BURST calls, so the
// host works on them while this thread is still busy with its turn; smaller bursts wait for the end of the turn
// and leave as one write; and while the host has MAX_OPEN_BURSTS, later calls wait here and leave together after
// the oldest is answered.

import { performance } from 'node:perf_hooks';
import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { nextTurn, waitFor } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it } from 'vitest';
import { EARLY_BURST } from '../src/isolated/session.js';
import { loadPlugin } from '../src/load.js';
import { MAX_OPEN_BURSTS } from '../src/wire/calls.js';
import { hostPids, inNanosleep } from './support/host-proc.js';
import { callError } from './support/suite/helpers.js';

const SLEEP_MS = 25; // wide enough apart that the two outcomes differ by far more than a loaded machine's noise

/**
 * Makes `count` calls of a tool that sleeps SLEEP_MS each, then holds this thread (without running the event
 * loop) for longer than the host needs for all of them, and returns how long the calls took to settle after that.
 */
async function settleAfterHold(count: number): Promise<number> {
  const plugin = await loadPlugin(fixture('crashy'), { isolation: 'process' });
  try {
    await plugin.execute('echo', {});
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < count; i++) calls.push(plugin.execute('sleep', { ms: SLEEP_MS }));
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, count * SLEEP_MS + 1000);
    const released = performance.now();
    await Promise.all(calls);
    return performance.now() - released;
  } finally {
    await plugin.close();
  }
}

describe('early bursts (isolated)', () => {
  it(`sends ${EARLY_BURST} calls before the turn ends: they ran while this thread was held`, async () => {
    // Sent only at the end of the turn, they would need EARLY_BURST × 25 ms (800 ms) after the hold.
    expect(await settleAfterHold(EARLY_BURST)).toBeLessThan((EARLY_BURST * SLEEP_MS) / 2);
  });

  it('keeps a smaller burst until the end of the turn', async () => {
    // Nothing was sent during the hold, so the host starts on them only after it.
    expect(await settleAfterHold(EARLY_BURST - 1)).toBeGreaterThanOrEqual((EARLY_BURST - 1) * SLEEP_MS * 0.9);
  });
});

describe(`at most ${MAX_OPEN_BURSTS} bursts at the host (isolated)`, () => {
  it('holds the calls made while the host has them: one cancelled meanwhile never reaches the host', async () => {
    const before = hostPids();
    const plugin = await loadPlugin(fixture('crashy'), { isolation: 'process' });
    try {
      const [host] = [...hostPids()].filter((pid) => !before.has(pid));
      if (host === undefined) throw new Error('no new plugin host process');
      await plugin.execute('echo', {});
      // The sequence is the subject: the host inside a long sleep (its thread in nanosleep, from /proc), a second
      // burst in its input, then a third held here and cancelled there, all before the sleep ends.
      const slow = plugin.execute('sleep', { ms: 3000 });
      await waitFor(() => inNanosleep(host), 'the host to be inside the sleep');
      const next = plugin.execute('sleep', { ms: 1 }); // the second burst: it leaves at the end of this turn
      await nextTurn();
      const controller = new AbortController();
      const dropped = plugin.execute('echo', { dropped: true }, { signal: controller.signal });
      const kept = plugin.execute('echo', { kept: true });
      await nextTurn(); // held here: the host has MAX_OPEN_BURSTS bursts
      expect(inNanosleep(host)).toBe(true); // still inside the sleep, so the held calls had no way out
      controller.abort();
      expect((await callError(dropped)).code).toBe('ENTROPIC_ERROR_CANCELLED');
      await slow;
      await next;
      expect((await kept).result).toBe('{"kept":true}');
      // Sent to the host before it was cancelled, the call would have been found at the head of its queue after
      // the sleep, and the host killed for it (a plugin without the plugin context cannot be told): the count
      // below would then come from a new host.
      const state = JSON.parse((await plugin.execute('state', {})).result) as { calls: number };
      expect(state.calls).toBe(5); // echo, sleep, sleep, kept, state: one host, and the cancelled call never ran
    } finally {
      await plugin.close();
    }
  });
});

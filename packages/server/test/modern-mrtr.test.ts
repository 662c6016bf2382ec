/**
 * Multi-round-trip requests (2026-07-28): one handler API in both eras, memoised answers across
 * rounds, and the sealed requestState refused when tampered, expired, replayed or from another key.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { type HandlerContext, McpServer, type ServerOptions, text } from '../src/index.js';
import { initializedPeer } from './support/in-memory.js';
import { type ModernPeer, modernPeer } from './support/modern.js';

const servers: McpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const CAPS = { elicitation: {}, sampling: {}, roots: {} };
let sideEffects = 0;

/** One tool, written once: a name (elicitation), then a greeting (sampling) and the roots at once. */
async function greet(_args: Record<string, unknown>, ctx: HandlerContext) {
  const who = await ctx.elicit(
    'Your name?',
    { type: 'object', properties: { name: { type: 'string' } } },
    { key: 'who' },
  );
  const { greeting, roots } = await ctx.ask({
    greeting: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 20 } },
    roots: { method: 'roots/list' },
  });
  sideEffects++;
  const line = `${(greeting.content as { text: string }).text}, ${(who.content as { name: string }).name} (${roots.roots.length} roots, round ${ctx.round}, ${ctx.era})`;
  return { content: [text(line)] };
}

function makeServer(options: ServerOptions = {}): McpServer {
  const server = new McpServer({ name: 'mrtr', version: '1' }, options);
  server.addTool(
    { name: 'greet', inputSchema: { type: 'object', properties: { n: { type: 'number' } } } },
    greet,
  );
  servers.push(server);
  return server;
}

const answers = {
  who: { action: 'accept', content: { name: 'Ada' } },
  greeting: { role: 'assistant', content: { type: 'text', text: 'Hello' }, model: 'm' },
  roots: { roots: [{ uri: 'file:///a' }, { uri: 'file:///b' }] },
};

async function firstRound(peer: ModernPeer, args: Record<string, unknown> = {}) {
  const r = (await peer.modern('tools/call', { name: 'greet', arguments: args })).result as Record<
    string,
    unknown
  >;
  expect(r.resultType).toBe('input_required');
  return r;
}

describe('multi-round-trip requests', () => {
  it('runs the same handler over three rounds, memoising earlier answers', async () => {
    sideEffects = 0;
    const peer = await modernPeer(makeServer(), CAPS);
    const r1 = await firstRound(peer);
    expect(Object.keys(r1.inputRequests as object)).toEqual(['who']);
    const r2 = (
      await peer.modern('tools/call', {
        name: 'greet',
        arguments: {},
        requestState: r1.requestState,
        inputResponses: { who: answers.who, extra: {} },
      })
    ).result as Record<string, unknown>;
    // Both questions of the second step come at once; the first answer is not asked again.
    expect(r2.resultType).toBe('input_required');
    expect(Object.keys(r2.inputRequests as object).sort()).toEqual(['greeting', 'roots']);
    expect(sideEffects).toBe(0);
    const r3 = (
      await peer.modern('tools/call', {
        name: 'greet',
        arguments: {},
        requestState: r2.requestState,
        inputResponses: { greeting: answers.greeting, roots: answers.roots },
      })
    ).result as Record<string, unknown>;
    expect(r3.resultType).toBe('complete');
    expect(r3.content).toEqual([{ type: 'text', text: 'Hello, Ada (2 roots, round 3, modern)' }]);
    expect(sideEffects).toBe(1);
  });

  it('on a 2025 session the same handler sends real requests to the client', async () => {
    const server = makeServer();
    const { peer } = await initializedPeer(server, CAPS);
    peer.onServerRequest = (m) => {
      if (m.method === 'elicitation/create') return answers.who;
      if (m.method === 'sampling/createMessage') return answers.greeting;
      return answers.roots;
    };
    const result = await peer.call('tools/call', { name: 'greet', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada (2 roots, round 1, legacy)' }]);
  });

  it('asks again for an answer that is missing, and refuses a malformed one', async () => {
    const peer = await modernPeer(makeServer(), CAPS);
    const r1 = await firstRound(peer);
    const again = (
      await peer.modern('tools/call', {
        name: 'greet',
        arguments: {},
        requestState: r1.requestState,
        inputResponses: { wrong: answers.who },
      })
    ).result as Record<string, unknown>;
    expect(Object.keys(again.inputRequests as object)).toEqual(['who']);
    const bad = await peer.modern('tools/call', {
      name: 'greet',
      arguments: {},
      requestState: r1.requestState,
      inputResponses: { who: { action: 'maybe' } },
    });
    expect(bad.error).toMatchObject({ code: -32602 });
    expect((bad.error as { message: string }).message).toContain('inputResponses["who"]');
    const notMap = await peer.modern('tools/call', { name: 'greet', arguments: {}, inputResponses: 'yes' });
    expect(notMap.error).toMatchObject({ code: -32602, data: { pointer: '/params/inputResponses' } });
  });

  it('uses answers sent ahead without a requestState for what it asks, ignoring unknown keys', async () => {
    const peer = await modernPeer(makeServer(), CAPS);
    const ahead = (
      await peer.modern('tools/call', {
        name: 'greet',
        arguments: {},
        inputResponses: { ...answers, unasked: { action: 'accept', content: { x: 1 } } },
      })
    ).result as Record<string, unknown>;
    expect(ahead.resultType).toBe('complete');
    expect(ahead.content).toEqual([{ type: 'text', text: expect.stringContaining('Hello, Ada') }]);
    const partial = (
      await peer.modern('tools/call', {
        name: 'greet',
        arguments: {},
        inputResponses: { unasked: answers.who },
      })
    ).result as Record<string, unknown>;
    expect(partial.resultType).toBe('input_required');
    expect(Object.keys(partial.inputRequests as object)).toEqual(['who']);
    const bad = await peer.modern('tools/call', {
      name: 'greet',
      arguments: {},
      inputResponses: { who: { action: 'maybe' } },
    });
    expect(bad.error).toMatchObject({ code: -32602, data: { pointer: '/params/inputResponses/who' } });
  });

  it('answers -32021 naming the capability when the request did not declare it', async () => {
    const peer = await modernPeer(makeServer(), { sampling: {} });
    const r = await peer.modern('tools/call', { name: 'greet', arguments: {} });
    expect(r.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { form: {} } } },
    });
  });
});

describe('sealed requestState', () => {
  it('refuses a tampered state', async () => {
    const peer = await modernPeer(makeServer(), CAPS);
    const state = (await firstRound(peer)).requestState as string;
    const forged = state.replace('"round":2', '"round":9');
    expect(forged).not.toBe(state);
    const r = await peer.modern('tools/call', {
      name: 'greet',
      arguments: {},
      requestState: forged,
      inputResponses: { who: answers.who },
    });
    expect(r.error).toMatchObject({ code: -32602, data: { pointer: '/params/requestState' } });
    expect((r.error as { message: string }).message).toMatch(/integrity check/);
  });

  it('refuses a state replayed against another request', async () => {
    const peer = await modernPeer(makeServer(), CAPS);
    const state = (await firstRound(peer, { n: 1 })).requestState;
    const r = await peer.modern('tools/call', {
      name: 'greet',
      arguments: { n: 2 },
      requestState: state,
      inputResponses: { who: answers.who },
    });
    expect(r.error).toMatchObject({ code: -32602 });
    expect((r.error as { message: string }).message).toMatch(/another request/);
  });

  it('refuses an expired state', async () => {
    let now = Date.now();
    const clock = () => now; // the server's clock, moved by hand
    const server = makeServer({ clock, requestState: { ttlMs: 1000, clockToleranceMs: 0 } });
    const peer = await modernPeer(server, CAPS);
    const state = (await firstRound(peer)).requestState;
    now += 1000;
    const atExpiry = await peer.modern('tools/call', {
      name: 'greet',
      arguments: {},
      requestState: state,
      inputResponses: { who: answers.who },
    });
    expect(atExpiry.error).toBeUndefined(); // still good at its expiry
    now += 1;
    const r = await peer.modern('tools/call', {
      name: 'greet',
      arguments: {},
      requestState: state,
      inputResponses: { who: answers.who },
    });
    expect((r.error as { message: string }).message).toMatch(/requestState expired at/);
  });

  it('needs one key shared by every server instance behind the endpoint', async () => {
    const [a, b] = [makeServer(), makeServer()];
    const state = (await firstRound(await modernPeer(a, CAPS))).requestState;
    const onB = await (await modernPeer(b, CAPS)).modern('tools/call', {
      name: 'greet',
      arguments: {},
      requestState: state,
      inputResponses: { who: answers.who },
    });
    expect((onB.error as { message: string }).message).toMatch(/sealed with another key/);

    const key = 'a shared secret of enough length';
    const [c, d] = [makeServer({ requestState: { key } }), makeServer({ requestState: { key } })];
    const shared = (await firstRound(await modernPeer(c, CAPS))).requestState;
    const onD = (
      await (
        await modernPeer(d, CAPS)
      ).modern('tools/call', {
        name: 'greet',
        arguments: {},
        requestState: shared,
        inputResponses: { who: answers.who },
      })
    ).result as Record<string, unknown>;
    expect(onD.resultType).toBe('input_required');
    expect(Object.keys(onD.inputRequests as object).sort()).toEqual(['greeting', 'roots']);
  });

  describe('expiry between servers whose clocks differ', () => {
    const key = 'a shared secret of enough length';
    const MINUTE = 60_000;
    /** The retry of a state sealed by a server `sealerAhead` ms ahead, on one `openerAhead` ms ahead. */
    async function retry(sealer: ServerOptions, opener: ServerOptions) {
      const sealing = makeServer({ ...sealer, requestState: { key, ttlMs: MINUTE, ...sealer.requestState } });
      const state = (await firstRound(await modernPeer(sealing, CAPS))).requestState;
      const opening = makeServer({ ...opener, requestState: { key, ttlMs: MINUTE, ...opener.requestState } });
      return (await modernPeer(opening, CAPS)).modern('tools/call', {
        name: 'greet',
        arguments: {},
        requestState: state,
        inputResponses: { who: answers.who },
      });
    }
    const ahead = (ms: number) => () => Date.now() + ms;

    it('seal and open on ServerOptions.clock, so servers sharing a clock agree', async () => {
      // A shared clock 10 minutes behind this machine's: the state's expiry is on it.
      const shared = ahead(-10 * MINUTE);
      const same = await retry({ clock: shared }, { clock: shared });
      expect(same.result).toMatchObject({ resultType: 'input_required' });
      const own = await retry({ clock: shared }, {});
      expect((own.error as { message: string }).message).toMatch(/requestState expired at/);
    });

    it('tolerate clocks that differ by less than clockToleranceMs, refuse beyond it', async () => {
      const within = await retry({}, { clock: ahead(MINUTE + 20_000) });
      expect(within.result).toMatchObject({ resultType: 'input_required' });
      const beyond = await retry({}, { clock: ahead(MINUTE + 40_000) });
      expect((beyond.error as { message: string }).message).toMatch(/requestState expired at/);
      const wider = await retry(
        {},
        { clock: ahead(MINUTE + 40_000), requestState: { clockToleranceMs: 60_000 } },
      );
      expect(wider.result).toMatchObject({ resultType: 'input_required' });
    });

    it('refuses a clockToleranceMs that is not a non-negative integer', () => {
      expect(() => makeServer({ requestState: { clockToleranceMs: -1 } })).toThrow(/clockToleranceMs/);
    });
  });
});

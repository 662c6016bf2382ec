// Property-based fuzzing of 2026-07-28 requests over the stdio transport (real framing on in-process
// pipes): malformed `_meta` envelopes, forged or tampered `requestState`, and listen filters with
// unknown or mistyped fields each get the spec's JSON-RPC error (or, when nothing is wrong, the
// answer), and a valid request in flight beside each one is unaffected. FUZZ_RUNS=N sets the cases.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer, text } from '../src/index.js';
import { addFuzzTools } from './fixtures/fuzz/tools.mjs';
import { runs, timeLimit } from './support/fuzz-cases.js';
import { CAPABILITIES_KEY, envelope, MODERN, VERSION_KEY } from './support/modern-envelope.js';
import { type Message, Peer } from './support/peer.js';
import { connectStdioStreams } from './support/stdio-streams.js';

const LOG_KEY = 'io.modelcontextprotocol/logLevel';
let server: McpServer;
let peer: Peer;

beforeAll(async () => {
  server = addFuzzTools(new McpServer({ name: 'fuzz-modern', version: '1' }), text);
  server.addTool({ name: 'ask', inputSchema: { type: 'object' } }, async (args, ctx) => {
    const answer = await ctx.elicit('Name?', { type: 'object', properties: { name: { type: 'string' } } });
    return { content: [text(`Hello, ${String(answer.content?.name)} on ${String(args.topic)}`)] };
  });
  peer = new Peer((await connectStdioStreams(server)).handle);
});

afterAll(async () => {
  await peer?.handle.close();
  await server?.close();
});

const modern = (method: string, params: Record<string, unknown>) =>
  peer.request(method, { ...params, _meta: envelope({ elicitation: {} }) });

/** A valid slow call started before a hostile request; it must still finish as if alone. */
async function bystander(): Promise<void> {
  const answer = await modern('tools/call', { name: 'sleep', arguments: { ms: 20 } });
  expect((answer.result as { content: { text: string }[] }).content[0]?.text).toBe('slept');
}

function errorOf(answer: Message): { code: number; message: string; data?: unknown } {
  const error = answer.error as { code: number; message: string; data?: unknown } | undefined;
  expect(error, JSON.stringify(answer)).toBeDefined();
  expect(error?.message).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
  return error as { code: number; message: string; data?: unknown };
}

const ABSENT = Symbol('absent');
const version = fc.constantFrom<unknown>(MODERN, MODERN, '2025-11-25', '2099-01-01', 5, null, ABSENT);
const capabilities = fc.constantFrom<unknown>({}, { elicitation: {} }, 'none', null, [], ABSENT);
const logLevel = fc.constantFrom<unknown>(ABSENT, ABSENT, 'info', 'loud', 3);
const metaShape = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(version, capabilities, logLevel) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>('x', 7, [], null) },
);

describe('2026-07-28 over stdio: fuzz', () => {
  beforeAll(async () => {
    // pin the connection to 2026-07-28 first
    expect((await modern('tools/list', {})).result).toBeDefined();
  });

  it('gives every malformed envelope the spec error and a valid one the answer', {
    timeout: timeLimit(60_000),
  }, async () => {
    await fc.assert(
      fc.asyncProperty(metaShape, fc.string({ maxLength: 20 }), async (shape, said) => {
        let meta: unknown = shape;
        const allowed = new Set<number>();
        if (Array.isArray(shape) && shape.length === 3) {
          const [v, c, l] = shape as unknown[];
          const m: Record<string, unknown> = {};
          if (v !== ABSENT) m[VERSION_KEY] = v;
          if (c !== ABSENT) m[CAPABILITIES_KEY] = c;
          if (l !== ABSENT) m[LOG_KEY] = l;
          meta = m;
          // no envelope version: not a 2026-07-28 request on a connection pinned to it
          if (v === ABSENT) for (const code of [-32600, -32602, -32022]) allowed.add(code);
          else if (typeof v !== 'string') allowed.add(-32602);
          else if (v !== MODERN) allowed.add(-32022);
          if (c === ABSENT || typeof c !== 'object' || c === null || Array.isArray(c)) allowed.add(-32602);
          if (l !== ABSENT && l !== 'info') allowed.add(-32602);
        } else for (const code of [-32600, -32602, -32022]) allowed.add(code);
        const beside = bystander();
        const answer = await peer.request('tools/call', {
          name: 'echo',
          arguments: { text: said },
          _meta: meta,
        });
        if (allowed.size === 0) {
          expect((answer.result as { content: { text: string }[] }).content[0]?.text).toBe(said);
          expect((answer.result as { resultType?: string }).resultType).toBe('complete');
        } else {
          const error = errorOf(answer);
          expect([...allowed], JSON.stringify(answer)).toContain(error.code);
          if (error.code === -32022 && allowed.size === 1)
            expect(error.data).toMatchObject({
              supported: [MODERN],
              requested: (meta as Message)[VERSION_KEY],
            });
        }
        await beside;
      }),
      { numRuns: runs(150) },
    );
  });

  it('refuses a forged or tampered requestState with -32602 naming it, and serves the genuine retry', {
    timeout: timeLimit(60_000),
  }, async () => {
    const first = (await modern('tools/call', { name: 'ask', arguments: { topic: 'a' } })).result as Message;
    expect(first.resultType).toBe('input_required');
    const state = String(first.requestState);
    const inputResponses = Object.fromEntries(
      Object.keys(first.inputRequests as object).map((k) => [
        k,
        { action: 'accept', content: { name: 'Ada' } },
      ]),
    );
    const forged = fc.oneof(
      fc
        .tuple(fc.nat({ max: state.length - 1 }), fc.string({ minLength: 1, maxLength: 1 }))
        .map(([i, ch]) => state.slice(0, i) + ch + state.slice(i + 1)),
      fc.string({ maxLength: 200 }),
      fc.nat({ max: state.length - 1 }).map((i) => state.slice(0, i)),
      fc.constantFrom<unknown>(7, null, {}, [state]),
    );
    await fc.assert(
      fc.asyncProperty(forged, async (bad) => {
        fc.pre(bad !== state);
        const beside = bystander();
        const answer = await modern('tools/call', {
          name: 'ask',
          arguments: { topic: 'a' },
          inputResponses,
          requestState: bad,
        });
        const error = errorOf(answer);
        expect(error.code).toBe(-32602);
        expect(error.message).toMatch(/requestState/);
        await beside;
      }),
      { numRuns: runs(60) },
    );
    const genuine = await modern('tools/call', {
      name: 'ask',
      arguments: { topic: 'a' },
      inputResponses,
      requestState: state,
    });
    expect((genuine.result as { content: { text: string }[] }).content[0]?.text).toBe('Hello, Ada on a');
  });

  it('acknowledges the known part of a listen filter or refuses it with -32602; mistyped fields are refused', {
    timeout: timeLimit(60_000),
  }, async () => {
    const known = ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'];
    const unknown = fc.dictionary(
      fc
        .string({ minLength: 1, maxLength: 12 })
        .filter((k) => !known.includes(k) && k !== 'resourceSubscriptions' && k !== '__proto__'),
      fc.jsonValue({ maxDepth: 2 }),
      { maxKeys: 3 },
    );
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(known),
        unknown,
        fc.option(fc.constantFrom(...known), { nil: undefined }),
        async (asked, extra, wrong) => {
          const notifications: Record<string, unknown> = {
            ...extra,
            ...Object.fromEntries(asked.map((k) => [k, true])),
          };
          if (wrong !== undefined) notifications[wrong] = 'yes';
          const id = `listen-${++n}`;
          const acked = peer.waitFor(
            (m) =>
              m.method === 'notifications/subscriptions/acknowledged' &&
              (m.params as { _meta: Message })._meta['io.modelcontextprotocol/subscriptionId'] === id,
            5_000,
          );
          const refused = peer.request('subscriptions/listen', { notifications, _meta: envelope() }, id);
          const first = await Promise.race([acked, refused]);
          if (first.method === undefined) {
            const error = errorOf(first);
            expect(error.code).toBe(-32602);
            // refusal is right for a mistyped field; for unknown fields the spec prefers omitting them (see report)
            expect(wrong !== undefined || Object.keys(extra).length > 0, JSON.stringify(first)).toBe(true);
            acked.catch(() => {});
            return;
          }
          expect(wrong, 'a mistyped filter was acknowledged').toBeUndefined();
          const granted = (first.params as { notifications: Record<string, unknown> }).notifications;
          expect(Object.keys(granted).sort()).toEqual([...asked].sort());
          await peer.notify('notifications/cancelled', { requestId: id, _meta: envelope() });
        },
      ),
      { numRuns: runs(30) },
    );
    await bystander();
  });
});

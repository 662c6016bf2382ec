// Property-based fuzzing of 2026-07-28 requests over Streamable HTTP: random mixes of a malformed
// `_meta` envelope and missing or contradictory MCP-Protocol-Version, Mcp-Method, Mcp-Name (plain
// and base64 sentinel) and Mcp-Param-* headers, forged or tampered `requestState`, and listen filters
// with unknown or mistyped fields. Each must get the spec's status and JSON-RPC error (or, when
// nothing is wrong, the right answer), and a request in flight beside it must be unaffected.
// FUZZ_RUNS=N sets the cases.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpServerHandle, serveHttp } from '../src/http/index.js';
import { McpServer, text } from '../src/index.js';
import { addFuzzTools } from './fixtures/fuzz/tools.mjs';
import { runs, timeLimit } from './support/fuzz-cases.js';
import { CAPABILITIES_KEY, envelope, MODERN, VERSION_KEY } from './support/modern-envelope.js';
import {
  type Answer,
  firstText,
  headerValue,
  modernHeaders,
  postModern,
  resultOf,
  sentinel,
} from './support/modern-wire.js';

let http: HttpServerHandle;
let url = '';
let nextId = 0;
const id = () => `m-${++nextId}`;

beforeAll(async () => {
  const mcp = addFuzzTools(new McpServer({ name: 'fuzz-modern', version: '1' }), text);
  mcp.addTool({ name: 'écho', inputSchema: { type: 'object' } }, () => ({ content: [text('accented')] }));
  mcp.addTool(
    {
      name: 'regional',
      inputSchema: {
        type: 'object',
        properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
      },
    },
    (args) => ({ content: [text(`region ${String(args.region)}`)] }),
  );
  mcp.addTool({ name: 'ask', inputSchema: { type: 'object' } }, async (args, ctx) => {
    const answer = await ctx.elicit('Name?', { type: 'object', properties: { name: { type: 'string' } } });
    return { content: [text(`Hello, ${String(answer.content?.name)} on ${String(args.topic)}`)] };
  });
  http = await serveHttp(mcp);
  url = http.url;
});

afterAll(() => http?.close());

/** A modern tools/call with conforming headers; `meta` replaces the envelope when given. */
function call(name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const body = {
    jsonrpc: '2.0',
    id: id(),
    method: 'tools/call',
    params: { name, arguments: args, _meta: envelope({ elicitation: {} }), ...extra },
  };
  return { body, headers: modernHeaders(body) as Record<string, string | undefined> };
}

/** A valid slow call started before a hostile request; it must still finish as if alone. */
function bystander(): Promise<void> {
  const { body, headers } = call('sleep', { ms: 30 });
  return postModern(url, body, headers).then((a) => {
    expect(a.status).toBe(200);
    expect(firstText(resultOf(a))).toBe('slept');
  });
}

function expectError(
  a: Answer,
  codes: number[],
  status = 400,
): { code: number; message: string; data?: unknown } {
  expect(a.status, a.text).toBe(status);
  const error = a.message?.error as { code: number; message: string; data?: unknown } | undefined;
  expect(error, a.text).toBeDefined();
  expect(codes, a.text).toContain(error?.code);
  expect(error?.message).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
  return error as { code: number; message: string; data?: unknown };
}

const metaShape = fc.constantFrom(
  'valid',
  'noVersion',
  'noCaps',
  'unsupported',
  'notObject',
  'capsNotObject',
);
const versionHeader = fc.constantFrom('match', 'missing', 'legacy', 'garbage');
const methodHeader = fc.constantFrom('match', 'missing', 'other');
const nameHeader = fc.constantFrom('conform', 'base64', 'missing', 'other', 'badBase64', 'base64Other');
const paramHeader = fc.constantFrom('conform', 'base64', 'missing', 'other');
const target = fc.oneof(
  fc.record({ tool: fc.constant('echo'), text: fc.string({ maxLength: 30 }) }),
  fc.record({ tool: fc.constant('écho') }),
  fc.record({
    tool: fc.constant('regional'),
    region: fc.constantFrom(undefined, 'us-west1', 'Hello, 世界', ' padded ', '=?base64?literal?='),
  }),
);

describe('2026-07-28 over Streamable HTTP: fuzz', () => {
  it('gives every malformed envelope and header mix the spec error, and valid ones the answer', {
    timeout: timeLimit(90_000),
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        target,
        metaShape,
        versionHeader,
        methodHeader,
        nameHeader,
        paramHeader,
        async (t, meta, v, m, n, p) => {
          const args: Record<string, unknown> =
            t.tool === 'echo'
              ? { text: t.text }
              : t.tool === 'regional' && t.region !== undefined
                ? { region: t.region }
                : {};
          const version = meta === 'unsupported' ? '2099-01-01' : MODERN;
          const _meta: unknown = {
            valid: envelope(),
            noVersion: { [CAPABILITIES_KEY]: {} },
            noCaps: { [VERSION_KEY]: MODERN },
            unsupported: { ...envelope(), [VERSION_KEY]: version },
            notObject: 'not an object',
            capsNotObject: { ...envelope(), [CAPABILITIES_KEY]: 'none' },
          }[meta];
          const body = {
            jsonrpc: '2.0',
            id: id(),
            method: 'tools/call',
            params: { name: t.tool, arguments: args, _meta },
          };
          const allowed = new Set<number>();
          // Without an envelope version the era comes from the header alone (a 2025 one, or none, makes
          // it a legacy request without a session: -32000); an `_meta` that is no object makes the
          // message invalid (SDK v2 answers -32600 there).
          if (meta === 'noVersion' || meta === 'notObject')
            for (const c of [-32602, -32020, -32022, -32600, -32000]) allowed.add(c);
          if (meta === 'noCaps' || meta === 'capsNotObject') allowed.add(-32602);
          if (meta === 'unsupported') allowed.add(-32022);
          if (v !== 'match' || m !== 'match') allowed.add(-32020);
          if (!['conform', 'base64'].includes(n)) allowed.add(-32020);
          const region = t.tool === 'regional' ? t.region : undefined;
          if (region !== undefined && !['conform', 'base64'].includes(p)) allowed.add(-32020);
          if (v === 'garbage') allowed.add(-32022);
          const headers: Record<string, string | undefined> = {
            ...modernHeaders(body),
            'mcp-protocol-version': {
              match: version,
              missing: undefined,
              legacy: '2025-11-25',
              garbage: 'v9',
            }[v],
            'mcp-method': { match: 'tools/call', missing: undefined, other: 'tools/list' }[m],
            'mcp-name': {
              conform: headerValue(t.tool),
              base64: sentinel(t.tool),
              missing: undefined,
              other: 'nope',
              badBase64: '=?base64?***?=',
              base64Other: sentinel('nope'),
            }[n],
          };
          if (region !== undefined)
            headers['mcp-param-region'] = {
              conform: headerValue(region),
              base64: sentinel(region),
              missing: undefined,
              other: 'eu-north1',
            }[p];
          const beside = bystander();
          const answer = await postModern(url, body, headers);
          if (allowed.size === 0) {
            expect(answer.status, answer.text).toBe(200);
            const result = resultOf(answer);
            const want =
              t.tool === 'echo' ? t.text : t.tool === 'écho' ? 'accented' : `region ${String(region)}`;
            expect(firstText(result), answer.text).toBe(want);
            expect(result.resultType).toBe('complete');
          } else {
            const error = expectError(answer, [...allowed]);
            if (error.code === -32022 && meta === 'unsupported' && v === 'match')
              expect(error.data).toMatchObject({
                supported: expect.arrayContaining([MODERN]),
                requested: version,
              });
          }
          await beside;
        },
      ),
      { numRuns: runs(120) },
    );
  });

  it('answers the methods 2026-07-28 removed with 404 and -32601', async () => {
    for (const method of [
      'ping',
      'logging/setLevel',
      'resources/subscribe',
      'resources/unsubscribe',
      'tasks/list',
    ]) {
      const params = { _meta: envelope(), level: 'info', uri: 'fuzz://a' };
      const body = { jsonrpc: '2.0', id: id(), method, params };
      expectError(await postModern(url, body, modernHeaders(body)), [-32601], 404);
    }
  });

  it('refuses a forged, tampered or replayed requestState and still serves the genuine retry', {
    timeout: timeLimit(90_000),
  }, async () => {
    const first = call('ask', { topic: 'a' });
    const pending = resultOf(await postModern(url, first.body, first.headers));
    expect(pending.resultType).toBe('input_required');
    const state = String(pending.requestState);
    const inputResponses = Object.fromEntries(
      Object.keys(pending.inputRequests as object).map((k) => [
        k,
        { action: 'accept', content: { name: 'Ada' } },
      ]),
    );
    const other = call('ask', { topic: 'b' });
    const otherState = String(resultOf(await postModern(url, other.body, other.headers)).requestState);
    const forged = fc.oneof(
      fc
        .nat({ max: state.length - 1 })
        .map((i) => state.slice(0, i) + (state[i] === 'A' ? 'B' : 'A') + state.slice(i + 1)),
      fc.string({ maxLength: 200 }),
      fc.nat({ max: state.length - 1 }).map((i) => state.slice(0, i)),
      fc.constant(`${state}x`),
    );
    await fc.assert(
      fc.asyncProperty(forged, async (bad) => {
        fc.pre(bad !== state);
        const retry = call('ask', { topic: 'a' }, { inputResponses, requestState: bad });
        const beside = bystander();
        const answer = await postModern(url, retry.body, retry.headers);
        const error = expectError(answer, [-32602], answer.status);
        expect(error.message).toMatch(/requestState|state/i);
        await beside;
      }),
      { numRuns: runs(40) },
    );
    // replayed against another request: the state of topic "b" on a call about topic "a"
    const replay = call('ask', { topic: 'a' }, { inputResponses, requestState: otherState });
    const replayed = await postModern(url, replay.body, replay.headers);
    expect(replayed.message?.error, replayed.text).toBeDefined();
    const genuine = call('ask', { topic: 'a' }, { inputResponses, requestState: state });
    expect(firstText(resultOf(await postModern(url, genuine.body, genuine.headers)))).toBe('Hello, Ada on a');
  });

  it('acknowledges the known part of a listen filter (or refuses unknown fields) and refuses mistyped ones', {
    timeout: timeLimit(60_000),
  }, async () => {
    const known = ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const;
    const unknown = fc.dictionary(
      fc
        .string({ minLength: 1, maxLength: 12 })
        .filter((k) => !(known as readonly string[]).includes(k) && k !== 'resourceSubscriptions'),
      fc.jsonValue({ maxDepth: 2 }),
      { maxKeys: 3 },
    );
    const mistyped = fc.option(fc.constantFrom(...known), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(fc.subarray([...known]), unknown, mistyped, async (asked, extra, wrong) => {
        const notifications: Record<string, unknown> = {
          ...extra,
          ...Object.fromEntries(asked.map((k) => [k, true])),
        };
        if (wrong) notifications[wrong] = 'yes';
        const first = await listenFirst({ notifications });
        if (wrong || first.method === undefined) {
          expect((first.error as { code: number } | undefined)?.code, JSON.stringify(first)).toBe(-32602);
          // refusal is right for a mistyped field; for unknown fields the spec prefers omitting them
          expect(wrong !== undefined || Object.keys(extra).length > 0, JSON.stringify(first)).toBe(true);
          return;
        }
        expect(first.method).toBe('notifications/subscriptions/acknowledged');
        const granted = (first.params as { notifications: Record<string, unknown> }).notifications;
        expect(Object.keys(granted).sort()).toEqual([...asked].sort());
      }),
      { numRuns: runs(30) },
    );
  });
});

/** Open subscriptions/listen and return its first message (the acknowledgement or an error), then hang up. */
async function listenFirst(params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const body = {
    jsonrpc: '2.0',
    id: id(),
    method: 'subscriptions/listen',
    params: { ...params, _meta: envelope() },
  };
  const aborter = new AbortController();
  const timer = setTimeout(() => aborter.abort(), 15_000);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: modernHeaders(body),
      body: JSON.stringify(body),
      signal: aborter.signal,
    });
    if (!(res.headers.get('content-type') ?? '').includes('text/event-stream'))
      return (await res.json()) as Record<string, unknown>;
    const reader = (res.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`listen stream ended before a message: ${buffer}`);
      buffer += value;
      const data = buffer.split('\n').find((line) => line.startsWith('data:'));
      if (data !== undefined && buffer.includes('\n\n'))
        return JSON.parse(data.slice(5)) as Record<string, unknown>;
    }
  } finally {
    clearTimeout(timer);
    aborter.abort();
  }
}

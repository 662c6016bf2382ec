// Property-based fuzzing of Streamable HTTP POSTs over a real socket: random header choices (Accept,
// Content-Type, MCP-Protocol-Version, Mcp-Session-Id) and random bodies (oracle frames and garbage).
// Each POST must be answered (never left hanging) with the status the rules give, error bodies must be
// JSON-RPC errors without stack traces, a request that reaches the core must get exactly one answer
// with the right code, and the session must still answer ping. FUZZ_RUNS=N sets the cases.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp } from '../src/http/index.js';
import { McpServer, text } from '../src/index.js';
import { buildCases, type Expected, garbage, oracleCase, runs, timeLimit } from './fuzz-cases.js';
import { idSource } from './fuzz-ledger.js';
import { addFuzzTools } from './fuzz-tools.mjs';
import { initSession, sseMessages } from './http-helpers.js';

const accept = fc.constantFrom<string | undefined>(
  'application/json, text/event-stream',
  '*/*',
  'application/json',
  'text/event-stream',
  'text/html',
  undefined,
);
const contentType = fc.constantFrom<string | undefined>(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/jsonx',
  undefined,
);
const version = fc.constantFrom<string | undefined>('2025-11-25', '2025-03-26', undefined, '1999-01-01', '');
const session = fc.constantFrom('valid', 'missing', 'unknown', 'garbage');

interface Outcome {
  status: number;
  code?: number;
}

/** fetch sends `Accept: *\/*` when none is given. */
function bothAccepted(a: string | undefined = '*/*'): boolean {
  return a.includes('*/*') || (a.includes('application/json') && a.includes('text/event-stream'));
}

/** The status the rules give, in the handler's order of checks. */
function expectedOutcome(
  h: { accept?: string; type?: string; version?: string; session: string },
  body: Buffer,
  stateless: boolean,
): Outcome {
  if (!bothAccepted(h.accept)) return { status: 406 };
  if (h.type === undefined || !/^application\/json\s*(;|$)/i.test(h.type)) return { status: 415 };
  if (
    h.version !== undefined &&
    !['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'].includes(h.version)
  )
    return { status: 400 };
  let m: unknown;
  try {
    m = JSON.parse(body.toString('utf8'));
  } catch {
    return { status: 400, code: -32700 };
  }
  if (Array.isArray(m) || typeof m !== 'object' || m === null) return { status: 400, code: -32600 };
  const msg = m as Record<string, unknown>;
  if (msg.jsonrpc !== '2.0') return { status: 400, code: -32600 };
  const hasId = typeof msg.id === 'string' || (typeof msg.id === 'number' && Number.isFinite(msg.id));
  let kind: 'request' | 'notification' | 'response';
  if (typeof msg.method === 'string') {
    if (hasId) kind = 'request';
    else if (msg.id === undefined) kind = 'notification';
    else return { status: 400, code: -32600 };
  } else if (msg.method === undefined && (hasId || msg.id === null) && ('result' in msg || 'error' in msg)) {
    kind = 'response';
  } else return { status: 400, code: -32600 };
  if (!stateless) {
    if (kind === 'request' && msg.method === 'initialize')
      return { status: h.session === 'missing' ? 200 : 400 };
    if (h.session === 'missing' || h.session === 'garbage')
      return { status: h.session === 'missing' ? 400 : 404 };
    if (h.session === 'unknown') return { status: 404 };
  }
  return { status: kind === 'request' ? 200 : 202 };
}

describe.each([false, true])('Streamable HTTP POST fuzz (stateless: %s)', (stateless) => {
  let url = '';
  let close: () => Promise<void> = async () => {};
  let sessionId = '';
  beforeAll(async () => {
    const mcp = addFuzzTools(new McpServer({ name: 'fuzz', version: '1' }), text);
    const handle = await serveHttp(mcp, { stateless, sessionIdleTimeoutMs: 0 });
    url = handle.url;
    close = () => handle.close();
    if (!stateless) sessionId = await initSession(url);
  });
  afterAll(() => close());

  async function post(headers: Record<string, string | undefined>, body: Buffer) {
    const clean: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) if (v !== undefined) clean[k] = v;
    const res = await fetch(url, {
      method: 'POST',
      headers: clean,
      body,
      signal: AbortSignal.timeout(15_000),
    });
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
  }

  it('answers every POST with the status the rules give and each request once with the right code', {
    timeout: timeLimit(90_000),
  }, async () => {
    const id = idSource(`http-${stateless}`);
    let n = 0;
    const body = fc.oneof(
      { weight: 3, arbitrary: oracleCase.map((b) => ({ oracle: true as const, build: b })) },
      { weight: 1, arbitrary: garbage.map((g) => ({ oracle: false as const, bytes: g })) },
    );
    await fc.assert(
      fc.asyncProperty(accept, contentType, version, session, body, async (a, t, v, s, b) => {
        let frame: Buffer;
        let owed: Expected[] | undefined;
        let owedId: string | number | undefined;
        if (b.oracle) {
          const c = buildCases([b.build], id, { batches: false });
          if (c.frames.length !== 1) return; // multi-frame cases are about ordering on one stream
          frame = c.frames[0] as Buffer;
          const first = [...c.expects][0];
          if (first !== undefined) [owedId, owed] = first;
        } else frame = b.bytes;
        const sid = {
          valid: sessionId,
          missing: undefined,
          unknown: crypto.randomUUID(),
          garbage: '\u00ff..',
        }[s];
        const headers = {
          accept: a,
          'content-type': t,
          'mcp-protocol-version': v,
          'mcp-session-id': stateless ? undefined : sid?.replace(/[^\x20-\x7e]/g, '?'),
        };
        const want = expectedOutcome({ accept: a, type: t, version: v, session: s }, frame, stateless);
        const got = await post(headers, frame);
        expect(got.status).toBe(want.status);
        if (got.status >= 400) {
          const error = (JSON.parse(got.text) as { error: { code: number; message: string } }).error;
          expect(typeof error.code).toBe('number');
          if (want.code !== undefined) expect(error.code).toBe(want.code);
          expect(error.message).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
        }
        if (got.status === 200 && !(b.oracle && JSON.parse(frame.toString()).method === 'initialize')) {
          const answers = sseMessages(got.text).filter((m) => 'result' in m || 'error' in m);
          expect(answers).toHaveLength(1);
          const answer = answers[0] as Record<string, unknown>;
          if (owed !== undefined) {
            expect(answer.id).toEqual(owedId);
            const e = owed[0] as Expected;
            if (e.code !== undefined) expect((answer.error as { code: number }).code).toBe(e.code);
            else expect(e.result?.(answer.result)).toBe(true);
          }
        }
        const ping = await post(
          {
            accept: 'application/json, text/event-stream',
            'content-type': 'application/json',
            'mcp-session-id': stateless ? undefined : sessionId,
          },
          Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: `probe-${++n}`, method: 'ping' })),
        );
        expect(sseMessages(ping.text).find((m) => m.id === `probe-${n}`)?.result).toEqual({});
      }),
      { numRuns: runs(150) },
    );
  });
});

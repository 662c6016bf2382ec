// Property-based fuzzing of Streamable HTTP POSTs over a real socket: random header choices (Accept,
// Content-Type, MCP-Protocol-Version, Mcp-Session-Id) and random bodies (oracle frames and garbage).
// Each POST must be answered (never left hanging) with the status the rules give, error bodies must be
// JSON-RPC errors without stack traces, a request that reaches the core must get exactly one answer
// with the right code, and the session must still answer ping. FUZZ_RUNS=N sets the cases.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp } from '../src/http/index.js';
import { McpServer, text } from '../src/index.js';
import { addFuzzTools } from './fixtures/fuzz/tools.mjs';
import { buildCases, type Expected, garbage, oracleCase, runs, timeLimit } from './support/fuzz-cases.js';
import { idSource } from './support/fuzz-ledger.js';
import { INIT_BODY, post as postJson, sseMessages } from './support/http-helpers.js';

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
/** Initialize a session at `protocolVersion` and send notifications/initialized; returns its id. */
async function openSession(url: string, protocolVersion: string): Promise<string> {
  const init = await postJson(url, { ...INIT_BODY, params: { ...INIT_BODY.params, protocolVersion } });
  const sessionId = init.headers.get('mcp-session-id') ?? '';
  await init.text();
  const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': protocolVersion };
  await (await postJson(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).text();
  return sessionId;
}

type Kind = 'request' | 'notification' | 'response';

/** The handler's classification of one message (undefined: not a JSON-RPC 2.0 message). */
function kindOf(m: unknown): Kind | undefined {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return undefined;
  const msg = m as Record<string, unknown>;
  if (msg.jsonrpc !== '2.0') return undefined;
  const hasId = typeof msg.id === 'string' || (typeof msg.id === 'number' && Number.isFinite(msg.id));
  if (typeof msg.method === 'string') {
    if (hasId) return 'request';
    return msg.id === undefined ? 'notification' : undefined;
  }
  if (msg.method === undefined && (hasId || msg.id === null) && ('result' in msg || 'error' in msg))
    return 'response';
  return undefined;
}

/** The status the rules give, in the handler's order of checks. `batches`: the session negotiated 2025-03-26. */
function expectedOutcome(
  h: { accept?: string; type?: string; version?: string; session: string },
  body: Buffer,
  stateless: boolean,
  batches: boolean,
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
  if (Array.isArray(m)) {
    // Batches need a session that negotiated 2025-03-26, and well-formed members.
    if (!stateless && h.session === 'missing') return { status: 400, code: -32000 };
    if (!stateless && h.session !== 'valid') return { status: 404 };
    if (stateless || !batches || m.length === 0) return { status: 400, code: -32600 };
    const kinds = m.map(kindOf);
    if (kinds.includes(undefined)) return { status: 400, code: -32600 };
    const requests = m.filter((_item, i) => kinds[i] === 'request') as Record<string, unknown>[];
    if (requests.some((r) => r.method === 'initialize')) return { status: 400, code: -32600 };
    if (new Set(requests.map((r) => JSON.stringify(r.id))).size !== requests.length) return { status: 409 };
    return { status: requests.length > 0 ? 200 : 202 };
  }
  const kind = kindOf(m);
  if (kind === undefined) return { status: 400, code: -32600 };
  const msg = m as Record<string, unknown>;
  if (!stateless) {
    if (kind === 'request' && msg.method === 'initialize')
      return { status: h.session === 'missing' ? 200 : 400 };
    if (h.session === 'missing' || h.session === 'garbage')
      return { status: h.session === 'missing' ? 400 : 404 };
    if (h.session === 'unknown') return { status: 404 };
  }
  return { status: kind === 'request' ? 200 : 202 };
}

describe.each([
  { stateless: false, protocol: '2025-11-25' },
  { stateless: false, protocol: '2025-03-26' },
  { stateless: true, protocol: '2025-11-25' },
])('Streamable HTTP POST fuzz ($protocol, stateless: $stateless)', ({ stateless, protocol }) => {
  const batches = protocol === '2025-03-26';
  let url = '';
  let close: () => Promise<void> = async () => {};
  let sessionId = '';
  beforeAll(async () => {
    const mcp = addFuzzTools(new McpServer({ name: 'fuzz', version: '1' }), text);
    const handle = await serveHttp(mcp, { stateless, sessionIdleTimeoutMs: 0 });
    url = handle.url;
    close = () => handle.close();
    if (!stateless) sessionId = await openSession(url, protocol);
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
    const id = idSource(`http-${protocol}-${stateless}`);
    let n = 0;
    const body = fc.oneof(
      { weight: 3, arbitrary: oracleCase.map((b) => ({ oracle: true as const, build: b })) },
      { weight: 1, arbitrary: garbage.map((g) => ({ oracle: false as const, bytes: g })) },
    );
    await fc.assert(
      fc.asyncProperty(accept, contentType, version, session, body, async (a, t, v, s, b) => {
        let frame: Buffer;
        let owed = new Map<string | number, Expected[]>();
        if (b.oracle) {
          const c = buildCases([b.build], id, { batches });
          if (c.frames.length !== 1) return; // multi-frame cases are about ordering on one stream
          frame = c.frames[0] as Buffer;
          owed = c.expects;
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
        const want = expectedOutcome(
          { accept: a, type: t, version: v, session: s },
          frame,
          stateless,
          batches,
        );
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
          const parsed = JSON.parse(frame.toString('utf8')) as unknown;
          const asked = (Array.isArray(parsed) ? parsed : [parsed]).filter((m) => kindOf(m) === 'request');
          // Exactly one answer per request of the body, each the one the oracle owes.
          expect(answers.map((m) => JSON.stringify(m.id)).sort()).toEqual(
            asked.map((m) => JSON.stringify((m as { id: unknown }).id)).sort(),
          );
          for (const answer of answers) {
            const e = owed.get(answer.id as string | number)?.[0];
            if (e?.code !== undefined) expect((answer.error as { code: number }).code).toBe(e.code);
            else if (e !== undefined) expect(e.result?.(answer.result)).toBe(true);
          }
        }
        const ping = await post(
          {
            accept: 'application/json, text/event-stream',
            'content-type': 'application/json',
            'mcp-session-id': stateless ? undefined : sessionId,
            'mcp-protocol-version': protocol,
          },
          Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: `probe-${++n}`, method: 'ping' })),
        );
        expect(sseMessages(ping.text).find((m) => m.id === `probe-${n}`)?.result).toEqual({});
      }),
      { numRuns: runs(150) },
    );
  });
});

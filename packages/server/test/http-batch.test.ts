/** The 2025-03-26 JSON-RPC batches over Streamable HTTP, and the same refusals on stdio and HTTP. */
import { afterEach, describe, expect, it } from 'vitest';
import { BATCH_REFUSALS } from '../src/core/batch-rules.js';
import {
  callEcho,
  echoServer,
  errorOf,
  INIT_BODY,
  post,
  sseMessages,
  start,
} from './support/http-helpers.js';
import type { Message } from './support/peer.js';
import { connectStdioStreams } from './support/stdio-streams.js';

type Srv = Awaited<ReturnType<typeof start>>;
const open: Srv[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** A session that negotiated 2025-03-26, the one revision with JSON-RPC batches. */
async function oldSession(
  options: Parameters<typeof start>[0] = {},
): Promise<{ srv: Srv; headers: Record<string, string> }> {
  const srv = await start(options);
  open.push(srv);
  const init = await post(srv.url, {
    ...INIT_BODY,
    params: { ...INIT_BODY.params, protocolVersion: '2025-03-26' },
  });
  const headers = {
    'mcp-session-id': init.headers.get('mcp-session-id') as string,
    'mcp-protocol-version': '2025-03-26',
  };
  await init.text();
  await (await post(srv.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).text();
  return { srv, headers };
}

describe('Streamable HTTP: 2025-03-26 batches', () => {
  it('answers a batch of requests on one SSE stream', async () => {
    const { srv, headers } = await oldSession();
    const res = await post(
      srv.url,
      [callEcho(1, 'a'), callEcho(2, 'b'), { jsonrpc: '2.0', id: 3, method: 'ping' }],
      headers,
    );
    expect(res.status).toBe(200);
    const answers = sseMessages(await res.text());
    expect(answers.map((m) => m.id).sort()).toEqual([1, 2, 3]);
    expect(answers.find((m) => m.id === 2)?.result).toEqual({ content: [{ type: 'text', text: 'b' }] });
  });

  it('answers a batch with one JSON array in JSON-response mode', async () => {
    const { srv, headers } = await oldSession({ enableJsonResponse: true });
    const res = await post(
      srv.url,
      [callEcho(1, 'a'), { jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, callEcho(2, 'b')],
      headers,
    );
    expect(res.headers.get('content-type')).toBe('application/json');
    const answers = (await res.json()) as { id: number }[];
    expect(answers.map((m) => m.id).sort()).toEqual([1, 2]);
  });

  it('accepts a batch of notifications with 202', async () => {
    const { srv, headers } = await oldSession();
    const res = await post(
      srv.url,
      [{ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }],
      headers,
    );
    expect(res.status).toBe(202);
  });

  it('answers a batch the core refuses as a whole, leaving nothing in flight', async () => {
    for (const enableJsonResponse of [false, true]) {
      const { srv, headers } = await oldSession({ enableJsonResponse });
      const deep = `${'['.repeat(100)}${']'.repeat(100)}`;
      const body = `[{"jsonrpc":"2.0","id":"a","method":"ping","params":{"d":${deep}}},{"jsonrpc":"2.0","id":"b","method":"ping"}]`;
      const res = await post(srv.url, body, headers);
      expect(res.status).toBe(200);
      const text = await res.text();
      const answers = enableJsonResponse ? [JSON.parse(text)].flat() : sseMessages(text);
      expect(answers.length).toBeGreaterThan(0);
      for (const answer of answers) expect(answer.error).toMatchObject({ code: -32600 });
      expect(srv.handler.session(headers['mcp-session-id'] as string)?.inFlight).toBe(0);
    }
  });

  it('refuses batches in later revisions, empty batches and initialize inside one', async () => {
    const { srv, headers } = await oldSession();
    expect(await errorOf(await post(srv.url, [], headers))).toMatchObject({
      code: -32600,
      message: /empty batch/,
    });
    expect(await errorOf(await post(srv.url, [INIT_BODY], headers))).toMatchObject({
      message: /initialize must not/,
    });
    const init = await post(srv.url, INIT_BODY);
    const newer = { 'mcp-session-id': init.headers.get('mcp-session-id') as string };
    await init.text();
    const res = await post(srv.url, [callEcho(1, 'a')], newer);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(BATCH_REFUSALS.protocol);
  });
});

/** A stdio session (real transport and framing on pipes) that negotiated `version`; sends one batch, returns the answer. */
async function stdioAnswer(version: string, batch: unknown[]): Promise<Message> {
  const { handle } = await connectStdioStreams(echoServer());
  try {
    await handle.send({ ...INIT_BODY, params: { ...INIT_BODY.params, protocolVersion: version } });
    await handle.next();
    await handle.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await handle.send(batch);
    return await handle.next();
  } finally {
    await handle.close();
  }
}

/** The same batch over HTTP in a session that negotiated `version` (or with no session): status and error. */
async function httpAnswer(version: string | undefined, batch: unknown[]): Promise<[number, unknown]> {
  if (version === undefined) {
    const srv = await start({ stateless: true });
    open.push(srv);
    const res = await post(srv.url, batch);
    return [res.status, await res.json()];
  }
  const srv = await start();
  open.push(srv);
  const init = await post(srv.url, {
    ...INIT_BODY,
    params: { ...INIT_BODY.params, protocolVersion: version },
  });
  const headers = {
    'mcp-session-id': init.headers.get('mcp-session-id') as string,
    'mcp-protocol-version': version,
  };
  await init.text();
  await (await post(srv.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).text();
  const res = await post(srv.url, batch, headers);
  return [res.status, await res.json()];
}

describe('batch refusals are the same on stdio and Streamable HTTP', () => {
  const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
  const cases: [string, string, unknown[], string][] = [
    ['a batch under a later revision', '2025-11-25', [ping], BATCH_REFUSALS.protocol],
    ['an empty batch', '2025-03-26', [], BATCH_REFUSALS.empty],
    ['initialize inside a batch', '2025-03-26', [ping, { ...INIT_BODY, id: 2 }], BATCH_REFUSALS.initialize],
    ['a number inside a batch', '2025-03-26', [ping, 5], BATCH_REFUSALS.notAMessage],
    [
      'a 1.0 message inside a batch',
      '2025-03-26',
      [ping, { jsonrpc: '1.0', method: 'x' }],
      BATCH_REFUSALS.notAMessage,
    ],
  ];
  for (const [what, version, batch, refusal] of cases) {
    it(`refuses ${what} with one answer: -32600, id null, "${refusal}"`, async () => {
      const expected = { jsonrpc: '2.0', id: null, error: { code: -32600, message: refusal } };
      expect(await stdioAnswer(version, batch)).toEqual(expected);
      const [status, body] = await httpAnswer(version, batch);
      expect(status).toBe(400);
      expect(body).toEqual(expected);
    });
  }

  it('refuses a batch without a session (stateless HTTP) in the words of a later revision', async () => {
    const [status, body] = await httpAnswer(undefined, [ping]);
    expect(status).toBe(400);
    expect(body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: BATCH_REFUSALS.protocol },
    });
  });
});

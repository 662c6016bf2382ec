/**
 * The principal key over real HTTP with `bearerAuth`: what handlers see as `ctx.principal` in both
 * eras (the official v2 client), and a sealed 2026-07-28 `requestState` bound to it, so a state made
 * for one static token (or one JWT without `sub`) is refused from any other.
 */

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerAuth, type HttpServerHandle, serveHttp } from '../src/http/index.js';
import { McpServer } from '../src/index.js';
import { startIssuer, type TestIssuer } from './support/jwks.js';
import { envelope } from './support/modern-envelope.js';
import { modernHeaders, postModern, resultOf } from './support/modern-wire.js';

const AUDIENCE = 'https://mcp.example.test/mcp';
const STATIC_A = 'static-token-a-0123456789abcdef';
const STATIC_B = 'static-token-b-0123456789abcdef';

let issuer: TestIssuer;
let srv: HttpServerHandle;

beforeAll(async () => {
  issuer = await startIssuer();
  const mcp = new McpServer({ name: 'principal-test', version: '1.0.0' });
  mcp.addTool({ name: 'whoami' }, (_args, ctx) => ({
    content: [{ type: 'text', text: `${ctx.era} ${String(ctx.principal)}` }],
  }));
  mcp.addTool({ name: 'ask' }, async (_args, ctx) => {
    const answer = await ctx.elicit('Your name?', {
      type: 'object',
      properties: { name: { type: 'string' } },
    });
    return { content: [{ type: 'text', text: `hello ${String(answer.content?.name)}` }] };
  });
  srv = await serveHttp(mcp, {
    auth: bearerAuth({
      jwksUrl: issuer.jwksUrl,
      issuer: issuer.issuer,
      audience: AUDIENCE,
      tokens: [STATIC_A, STATIC_B],
    }),
  });
});

afterAll(async () => {
  await srv?.close();
  await issuer?.close();
});

async function principalSeen(token: string, mode: 'legacy' | 'modern'): Promise<string> {
  const transport = new StreamableHTTPClientTransport(new URL(srv.url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client(
    { name: 'principal-client', version: '1.0.0' },
    mode === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    const text = (result.content as { text: string }[])[0]?.text ?? '';
    const [era, principal = ''] = text.split(' ');
    expect(era).toBe(mode);
    return principal;
  } finally {
    await client.close();
  }
}

const jwt = (claims: Record<string, unknown>) => issuer.sign({ aud: AUDIENCE, ...claims });

describe('ctx.principal', () => {
  for (const mode of ['legacy', 'modern'] as const) {
    it(`is the same for two tokens of one subject and differs between callers (${mode})`, async () => {
      const alice1 = await principalSeen(await jwt({ sub: 'alice', jti: '1' }), mode);
      const alice2 = await principalSeen(await jwt({ sub: 'alice', jti: '2' }), mode);
      const bob = await principalSeen(await jwt({ sub: 'bob' }), mode);
      const staticA = await principalSeen(STATIC_A, mode);
      const staticB = await principalSeen(STATIC_B, mode);
      const anon1 = await principalSeen(await jwt({ jti: 'x' }), mode);
      const anon2 = await principalSeen(await jwt({ jti: 'y' }), mode);
      expect(alice1).toMatch(/^sub-[0-9a-f]{64}$/);
      expect(alice2).toBe(alice1);
      expect(staticA).toMatch(/^cred-[0-9a-f]{64}$/);
      expect(anon1).toMatch(/^cred-[0-9a-f]{64}$/);
      expect(new Set([alice1, bob, staticA, staticB, anon1, anon2]).size).toBe(6);
      expect(staticA).not.toContain(STATIC_A);
    });
  }
});

/** One 2026-07-28 `tools/call ask` as `token`, optionally a retry with a state and an answer. */
function ask(token: string, state?: unknown) {
  const params: Record<string, unknown> = {
    name: 'ask',
    arguments: {},
    _meta: envelope({ elicitation: {} }),
  };
  if (state !== undefined) {
    params.requestState = state;
    params.inputResponses = { 'input-1': { action: 'accept', content: { name: 'Ada' } } };
  }
  const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params };
  return postModern(srv.url, body, { ...modernHeaders(body), authorization: `Bearer ${token}` });
}

async function stateFor(token: string): Promise<unknown> {
  const first = resultOf(await ask(token));
  expect(first.resultType).toBe('input_required');
  return first.requestState;
}

describe('a sealed requestState belongs to its principal', () => {
  const cases: [string, () => Promise<string>, () => Promise<string>][] = [
    ['another static token', async () => STATIC_A, async () => STATIC_B],
    ['another JWT without sub', () => jwt({ jti: 'p' }), () => jwt({ jti: 'q' })],
    ['a JWT of another subject', () => jwt({ sub: 'alice' }), () => jwt({ sub: 'mallory' })],
  ];
  for (const [what, owner, other] of cases) {
    it(`is refused from ${what} (-32602) and still accepted from its own`, async () => {
      const [mine, theirs] = [await owner(), await other()];
      const state = await stateFor(mine);
      const stolen = await ask(theirs, state);
      expect(stolen.message?.error).toMatchObject({
        code: -32602,
        message: 'Invalid params: requestState was issued to another principal',
      });
      const own = resultOf(await ask(mine, state));
      expect(own.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
    });
  }

  it('is accepted from a new token of the same subject', async () => {
    const state = await stateFor(await jwt({ sub: 'alice', jti: 'before' }));
    const renewed = resultOf(await ask(await jwt({ sub: 'alice', jti: 'after' }), state));
    expect(renewed.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
  });
});

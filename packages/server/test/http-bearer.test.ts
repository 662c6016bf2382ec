/**
 * Bearer auth on the HTTP handler with the official v2 client's authProvider: JWTs checked against
 * a JWKS served over HTTP (signature, issuer, audience, expiry), tools hidden by scopes, static tokens.
 */

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerAuth, type HttpServerHandle, serveHttp } from '../src/http/index.js';
import { McpServer } from '../src/index.js';
import { INIT_BODY, post } from './support/http-helpers.js';
import { startIssuer, type TestIssuer } from './support/jwks.js';
import { envelope } from './support/modern-envelope.js';
import { modernHeaders } from './support/modern-wire.js';

const AUDIENCE = 'https://mcp.example.test/mcp';
const STATIC = 'static-token-0123456789abcdef';

let issuer: TestIssuer;
let srv: HttpServerHandle;

function mcpServer(): McpServer {
  const mcp = new McpServer({ name: 'bearer-test', version: '1.0.0' });
  mcp.addTool({ name: 'whoami' }, (_args, ctx) => ({
    content: [{ type: 'text', text: JSON.stringify(ctx.auth) }],
  }));
  mcp.addTool({ name: 'reset', scopes: ['admin', 'write'] }, () => ({
    content: [{ type: 'text', text: 'reset' }],
  }));
  return mcp;
}

beforeAll(async () => {
  issuer = await startIssuer();
  srv = await serveHttp(mcpServer(), {
    auth: bearerAuth({
      jwksUrl: issuer.jwksUrl,
      issuer: issuer.issuer,
      audience: AUDIENCE,
      tokens: [{ token: STATIC, scopes: ['admin', 'write'], subject: 'ops' }],
      resourceMetadata: { authorization_servers: [issuer.issuer], scopes_supported: ['admin', 'write'] },
    }),
  });
});

afterAll(async () => {
  await srv?.close();
  await issuer?.close();
});

/** A v2 client whose authProvider hands out `token` and records each 401 challenge. */
async function clientWith(token: string | undefined) {
  const challenges: string[] = [];
  const transport = new StreamableHTTPClientTransport(new URL(srv.url), {
    authProvider: {
      token: async () => token,
      onUnauthorized: async ({ response }) => {
        challenges.push(response.headers.get('www-authenticate') ?? '');
      },
    },
  });
  const client = new Client({ name: 'bearer-client', version: '1.0.0' });
  const connected = client.connect(transport).then(
    () => undefined,
    (error: unknown) => error as Error,
  );
  return { client, challenges, error: await connected };
}

describe('bearer auth with a JWKS', () => {
  it('accepts a valid token and gives handlers its claims and scopes', async () => {
    const token = await issuer.sign({ sub: 'alice', aud: AUDIENCE, scope: 'read admin', client_id: 'c1' });
    const { client, error } = await clientWith(token);
    expect(error).toBeUndefined();
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    const auth = JSON.parse((result.content as { text: string }[])[0]?.text ?? '{}');
    expect(auth).toMatchObject({ subject: 'alice', clientId: 'c1', scopes: ['read', 'admin'] });
    expect(issuer.fetches()).toBeGreaterThan(0);
    await client.close();
  });

  const refusals: [string, () => Promise<string | undefined>, RegExp][] = [
    ['no token', async () => undefined, /^Bearer resource_metadata="/],
    ['an expired token', () => issuer.sign({ sub: 'a', aud: AUDIENCE }, { expiresIn: -120 }), /has expired/],
    [
      'a wrong issuer',
      () => issuer.sign({ sub: 'a', aud: AUDIENCE, iss: 'https://evil.test' }),
      /the token.s iss claim is not accepted/,
    ],
    [
      'a wrong audience',
      () => issuer.sign({ sub: 'a', aud: 'https://other.test/mcp' }),
      /the token.s aud claim is not accepted/,
    ],
    [
      'a bad signature',
      () => issuer.sign({ sub: 'a', aud: AUDIENCE }, { forge: true }),
      /signature is invalid/,
    ],
    ['a garbage token', async () => 'not.a.jwt', /error="invalid_token"/],
  ];
  for (const [what, make, detail] of refusals) {
    it(`refuses ${what} with 401 and a challenge naming the metadata`, async () => {
      const { challenges, error } = await clientWith(await make());
      expect(error).toBeInstanceOf(Error);
      expect(challenges.length).toBeGreaterThan(0);
      const origin = new URL(srv.url).origin;
      expect(challenges[0]).toContain(
        `resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
      );
      expect(challenges[0]).toMatch(detail);
    });
  }

  it('hides a tool from a token lacking its scopes: not listed, and its call refused as unknown', async () => {
    const token = await issuer.sign({ sub: 'bob', aud: AUDIENCE, scope: 'read write' });
    const { client, error } = await clientWith(token);
    expect(error).toBeUndefined();
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual(['whoami']);
    await expect(client.callTool({ name: 'reset', arguments: {} })).rejects.toThrow(/Unknown tool: reset/);
    await client.close();
  });

  it('answers a 2026-07-28 call of a tool lacking the token’s scopes as one of an unknown tool', async () => {
    const call = async (scope: string, name: string) => {
      const token = await issuer.sign({ sub: 'eve', aud: AUDIENCE, scope });
      const body = {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name, arguments: {}, _meta: envelope() },
      };
      return fetch(srv.url, {
        method: 'POST',
        headers: { ...modernHeaders(body), authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
    };
    const refused = await call('read write', 'reset');
    const unknown = await call('read write', 'nope');
    expect(refused.status).toBe(unknown.status);
    expect(refused.headers.get('www-authenticate')).toBeNull();
    expect((await refused.text()).replace('reset', 'nope')).toBe(await unknown.text());
    const allowed = await call('admin write', 'reset');
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain('"text":"reset"');
  });

  it('lets a token with every scope of the tool call it', async () => {
    const token = await issuer.sign({ sub: 'root', aud: AUDIENCE, scp: ['write', 'admin'] });
    const { client } = await clientWith(token);
    const result = await client.callTool({ name: 'reset', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'reset' }]);
    await client.close();
  });

  it('accepts a configured static token with its scopes, and 400s a malformed header', async () => {
    const { client, error } = await clientWith(STATIC);
    expect(error).toBeUndefined();
    const result = await client.callTool({ name: 'reset', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'reset' }]);
    await client.close();
    const malformed = await post(srv.url, INIT_BODY, { authorization: 'Basic dXNlcjpwYXNz' });
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_request"/);
  });
});

describe('createBearerVerifier options', () => {
  it('names what is missing or weak', async () => {
    const { createBearerVerifier } = await import('../src/auth/index.js');
    expect(() => createBearerVerifier({})).toThrow(/give jwksUrl, jwks or tokens/);
    expect(() => createBearerVerifier({ jwksUrl: 'http://127.0.0.1:9/jwks.json', issuer: 'x' })).toThrow(
      /needs both issuer and audience/,
    );
    expect(() => createBearerVerifier({ tokens: ['short'] })).toThrow(/at least 16/);
    const verifier = createBearerVerifier({ tokens: [STATIC] });
    expect(await verifier.verify(`Bearer ${STATIC}`)).toMatchObject({ ok: true, info: { scopes: [] } });
    expect(await verifier.verify(`Bearer ${STATIC}x`)).toEqual({
      ok: false,
      error: 'invalid_token',
      description: 'unknown token',
    });
  });
});

// `entropic-mcp serve --http --auth-token-file`: the official SDK client with and without a token; a refused JWKS in serve's log.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { waitFor } from '@entropic-mcp/test-kit/wait';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, type HttpServer, startHttp, tempDir, textOf } from './support/serve-helpers.js';

const OPS = 'ops-token-0123456789abcdef';
const READER = 'reader-token-0123456789abc';
let server: HttpServer;

beforeAll(async () => {
  const dir = tempDir('auth');
  const tokens = join(dir, 'tokens');
  writeFileSync(tokens, `# test tokens\n${OPS} admin\n${READER}\n`);
  server = await startHttp(['--plugin', buildFixture(dir), '--auth-token-file', tokens]);
});
afterAll(async () => {
  await server?.stop();
});

function clientWith(token: string) {
  const client = new Client({ name: 'auth-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  return { client, connected: client.connect(transport) };
}

describe('serve with --auth-token-file', () => {
  it('says auth is on in the start-up report', () => {
    expect(server.stderr()).toMatch(/auth: bearer tokens required: 2 token\(s\) from \S+tokens/);
  });

  it('serves a client that sends a listed token', async () => {
    const { client, connected } = clientWith(READER);
    await connected;
    const echo = await client.callTool({ name: 'fx.echo', arguments: { text: 'authorized' } });
    expect(textOf(echo)).toBe('authorized');
    await client.close();
  });

  it('refuses a request without a token or with an unlisted one (401 with a Bearer challenge)', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const none = await fetch(server.url, { method: 'POST', headers, body });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer /);
    const wrong = await fetch(server.url, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${OPS}x` },
      body,
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    const { connected } = clientWith('not-listed-token-000000');
    await expect(connected).rejects.toThrow();
  });
});

describe('serve with --auth-jwks and --log-format json', () => {
  it("tells of a refused key set in serve's own log: a JSON line, with the bearer token masked", async () => {
    // A key set too large to read (serve's limit is 256 KiB): every JWT check refuses it and says why.
    const jwks = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [], pad: 'x'.repeat(300 * 1024) }));
    });
    await new Promise<void>((ready) => jwks.listen(0, '127.0.0.1', ready));
    const jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`;
    const dir = tempDir('auth-jwks');
    const json = await startHttp([
      ...['--plugin', buildFixture(dir), '--log-format', 'json'],
      ...['--auth-jwks', jwksUrl, '--auth-issuer', 'https://issuer.test', '--auth-audience', 'mcp'],
    ]);
    try {
      const jwt = `eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.${Buffer.from('{"sub":"someone"}').toString('base64url')}.c2lnbmF0dXJl`;
      const res = await fetch(json.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${jwt}`,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      expect(res.status).toBe(401);
      await waitFor(() => json.stderr().includes('"auth: '), 'the refusal logged as JSON', 20_000);
      const lines = json.stderr().trim().split('\n');
      for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
      const told = lines
        .map((l) => JSON.parse(l) as { level: string; msg: string })
        .filter((r) => r.msg.startsWith('auth: '));
      expect(told.length).toBeGreaterThan(0);
      expect(told[0]?.level).toBe('warn');
      expect(told[0]?.msg).toMatch(/JWKS|key set/i);
      expect(json.stderr()).not.toContain(jwt);
    } finally {
      await json.stop();
      jwks.close();
    }
  });
});

// `entropic-mcp serve --http --auth-token-file`: the official SDK client with and without a token.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

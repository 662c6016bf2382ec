// `serve --http --allowed-hosts / --allowed-origins` (and `mcp.allowed_hosts` / `mcp.allowed_origins`): the Host and
// Origin checks of the HTTP endpoint take the operator's names instead of the loopback defaults, as docs/scaling.md
// asks of a serve bound behind a proxy. Real serve processes, raw HTTP requests with the headers a proxy forwards.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rawRequest } from '@entropic-mcp/test-kit/raw-mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, type HttpServer, startHttp, tempDir } from './support/serve-helpers.js';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'hosts-test', version: '1' },
  },
};

let dir: string;
let plugin: string;
const servers: HttpServer[] = [];

beforeAll(() => {
  dir = tempDir('allowed-hosts');
  plugin = buildFixture(dir);
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

async function serve(args: string[]): Promise<string> {
  const server = await startHttp(['--plugin', plugin, ...args]);
  servers.push(server);
  return server.url;
}

/** The status of an initialize sent with these headers. */
async function statusWith(url: string, headers: Record<string, string>): Promise<number> {
  return (await rawRequest(url, 'POST', INITIALIZE, undefined, headers, 60_000)).status;
}

describe('serve --allowed-hosts and --allowed-origins', () => {
  it('without them, a Host other than a loopback name is refused with 403', async () => {
    const url = await serve([]);
    expect(await statusWith(url, { host: 'mcp.example.com' })).toBe(403);
    expect(await statusWith(url, {})).toBe(200);
  });

  it('serves the Host names listed, and refuses the others', async () => {
    const url = await serve(['--allowed-hosts', 'mcp.example.com,mcp.example.com:8443']);
    expect(await statusWith(url, { host: 'mcp.example.com' })).toBe(200);
    expect(await statusWith(url, { host: 'mcp.example.com:8443' })).toBe(200);
    expect(await statusWith(url, { host: 'evil.example' })).toBe(403);
  });

  it('serves the origins listed to browsers, and refuses the others', async () => {
    const url = await serve(['--allowed-origins', 'https://app.example.com']);
    expect(await statusWith(url, { origin: 'https://app.example.com' })).toBe(200);
    expect(await statusWith(url, { origin: 'https://evil.example' })).toBe(403);
  });

  it('reads mcp.allowed_hosts from the config file, added to the flag', async () => {
    const config = join(dir, 'hosts.yaml');
    writeFileSync(config, `mcp:\n  allowed_hosts: [from-file.example]\n  plugins: [${plugin}]\n`);
    const server = await startHttp(['--config', config, '--allowed-hosts', 'from-flag.example']);
    servers.push(server);
    expect(await statusWith(server.url, { host: 'from-file.example' })).toBe(200);
    expect(await statusWith(server.url, { host: 'from-flag.example' })).toBe(200);
    expect(await statusWith(server.url, { host: 'mcp.example.com' })).toBe(403);
  });
});

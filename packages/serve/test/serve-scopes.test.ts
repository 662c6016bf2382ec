// `scopes:` of a plugin entry: the compiled echo example served over HTTP with two bearer tokens of different
// scopes; each official SDK client (v1 in a 2025 session, v2 pinned to 2026-07-28) sees and calls only what its
// token's scopes allow, and a hidden tool is refused exactly as a tool that does not exist. Without --auth-*
// nobody holds a scope: serve says so at start-up, naming the plugin and its scoped tools.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  examplePlugins,
  type HttpServer,
  runServe,
  startHttp,
  tempDir,
  textOf,
} from './support/serve-helpers.js';

const ADMIN = 'admin-token-0123456789abcdef';
const READER = 'reader-token-0123456789abcdef';
const ECHO = examplePlugins().find((path) => path.endsWith('/echo.so')) as string;
let server: HttpServer;
let dir: string;

beforeAll(async () => {
  expect(ECHO, 'the echo example plugin is built').toBeDefined();
  dir = tempDir('scopes');
  writeFileSync(join(dir, 'tokens'), `${ADMIN} read admin\n${READER} read\n`);
  writeFileSync(
    join(dir, 'entropic.yaml'),
    ['mcp:', '  plugins:', `    - path: ${ECHO}`, '      scopes: { "*": [read], stop: [read, admin] }'].join(
      '\n',
    ),
  );
  server = await startHttp([
    '--config',
    join(dir, 'entropic.yaml'),
    '--auth-token-file',
    join(dir, 'tokens'),
  ]);
});

afterAll(async () => {
  await server?.stop();
});

interface Tools {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

async function connect(kind: 'v1' | 'v2 modern', token: string): Promise<Tools> {
  const requestInit = { headers: { authorization: `Bearer ${token}` } };
  if (kind === 'v1') {
    const client = new Client({ name: 'scopes-v1', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit }));
    return client as unknown as Tools;
  }
  const client = new ClientV2(
    { name: 'scopes-v2', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new HttpV2(new URL(server.url), { requestInit }));
  expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  return client as unknown as Tools;
}

/** What a refused call threw (code and message), its tool name swapped for NAME. */
async function refusal(client: Tools, name: string): Promise<string> {
  const error = (await client.callTool({ name, arguments: { text: 'x', reason: 'x' } }).then(
    () => undefined,
    (e: unknown) => e,
  )) as { code?: unknown; message?: string } | undefined;
  expect(error, `calling ${name}`).toBeDefined();
  return JSON.stringify({ code: error?.code, message: error?.message?.split(name).join('NAME') });
}

describe.each(['v1', 'v2 modern'] as const)('serve scopes: with the SDK %s client', (kind) => {
  it('each token lists and calls what its scopes allow; a hidden tool is as unknown', async () => {
    const admin = await connect(kind, ADMIN);
    const reader = await connect(kind, READER);
    const names = async (client: Tools) => (await client.listTools()).tools.map((t) => t.name).sort();
    expect(await names(admin)).toEqual(['echo.delegate', 'echo.echo', 'echo.stop']);
    expect(await names(reader)).toEqual(['echo.delegate', 'echo.echo']);
    expect(textOf(await reader.callTool({ name: 'echo.echo', arguments: { text: 'hi' } }))).toBe('hi');
    expect(await refusal(reader, 'echo.stop')).toBe(await refusal(reader, 'echo.nothing'));
    expect(await refusal(reader, 'echo.stop')).toContain('Unknown tool: NAME');
    const stopped = await admin.callTool({ name: 'echo.stop', arguments: { reason: 'done' } });
    expect(textOf(stopped)).toContain('done');
    await Promise.all([admin.close(), reader.close()]);
  });
});

const NO_AUTH_WARNING = 'but no --auth-* option is given: no caller holds a scope';

describe('serve scopes: without --auth-*', () => {
  it('warns at start-up, naming the plugin, its scoped tools and the fix', async () => {
    const bare = await startHttp(['--config', join(dir, 'entropic.yaml')]);
    try {
      const warning = bare
        .stderr()
        .split('\n')
        .find((line) => line.includes(NO_AUTH_WARNING));
      expect(warning, bare.stderr()).toBe(
        `entropic-mcp serve: warning: scopes: is set for ${ECHO} (stop, every other tool) ${NO_AUTH_WARNING}, ` +
          'so those tools are hidden from everyone; turn on auth with --http and --auth-token-file FILE ' +
          '(tokens with the scopes they grant) or --auth-jwks URL --auth-issuer ISS --auth-audience AUD, ' +
          'or remove the scopes',
      );
      const client = new Client({ name: 'scopes-no-auth', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(bare.url)));
      expect((await client.listTools()).tools).toEqual([]); // what the warning is about
      await client.close();
    } finally {
      await bare.stop();
    }
  });

  it('says nothing of it when auth is on', () => {
    expect(server.stderr()).not.toContain(NO_AUTH_WARNING);
  });
});

describe('serve scopes: refusals at start-up', () => {
  it('refuses a scopes mapping naming a tool the plugin does not have', async () => {
    const file = join(dir, 'typo.yaml');
    writeFileSync(
      file,
      ['mcp:', '  plugins:', `    - path: ${ECHO}`, '      scopes: { stpo: [admin] }'].join('\n'),
    );
    const run = await runServe(['--config', file]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/scopes of \S+echo\.so names "stpo", which plugin "echo" does not have/);
  });
});

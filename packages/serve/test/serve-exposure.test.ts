/**
 * What `serve` hands out or opens up only when told to, and says so: context headers that carry credentials
 * (`authorization`, cookies, API keys) are refused, on the command line and in the config file, unless
 * `--context-header-allow-credentials` (or `mcp.context_headers_allow_credentials`) allows them, and then a
 * start-up warning says that plugins receive the callers' credentials; a `--metrics` endpoint bound to an address
 * other machines reach is warned about (it has no authentication). Real serve processes, a real C plugin with the
 * plugin context, a real SDK client, a real scrape.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { freePort } from '@entropic-mcp/test-kit/ports';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { newClient, runServe, startHttp, tempDir, textOf } from './support/serve-helpers.js';

const REFUSAL = 'refusing to hand request headers that carry credentials to plugins';
const TOKEN = 'exposure-token-0123456789';

function tokenFile(dir: string): string {
  const file = join(dir, 'tokens');
  writeFileSync(file, `${TOKEN}\n`);
  return file;
}

describe('serve refuses context headers that carry credentials unless allowed', () => {
  it.each([['Authorization'], ['cookie'], ['Proxy-Authorization'], ['X-Api-Key'], ['x-session-token']])(
    '--context-header %s: a usage error naming it and the option that allows it',
    async (header) => {
      const r = await runServe([
        '--plugin',
        fixture('voice'),
        '--http',
        '127.0.0.1:0',
        '--context-header',
        header,
      ]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(REFUSAL);
      expect(r.stderr).toContain(`--context-header ${header.toLowerCase()}`);
      expect(r.stderr).toContain('--context-header-allow-credentials');
    },
    30_000,
  );

  it('mcp.context_headers in the config file: refused, naming the file; allowed by the file', async () => {
    const dir = tempDir('exposure-yaml');
    const config = join(dir, 'serve.yaml');
    const plugins = `mcp:\n  plugins: [${JSON.stringify(fixture('voice'))}]\n`;
    writeFileSync(config, `${plugins}  context_headers: [x-tenant, Cookie]\n`);
    const refused = await runServe(['--config', config, '--http', '127.0.0.1:0']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`cookie in mcp.context_headers of ${config}`);
    writeFileSync(
      config,
      `${plugins}  context_headers: [cookie]\n  context_headers_allow_credentials: true\n`,
    );
    const server = await startHttp(['--config', config]);
    expect(await server.stop()).toBe(0);
    expect(server.stderr()).toContain(
      'warning: plugins with the plugin context receive the request headers cookie',
    );
  }, 60_000);

  it('--context-header-allow-credentials: the plugin gets the header, and start-up says so', async () => {
    const dir = tempDir('exposure-allowed');
    const server = await startHttp([
      '--plugin',
      fixture('voice'),
      '--auth-token-file',
      tokenFile(dir),
      '--context-header',
      'Authorization',
      '--context-header-allow-credentials',
    ]);
    const client = newClient();
    try {
      const headers = { Authorization: `Bearer ${TOKEN}` };
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }),
      );
      const text = textOf(await client.callTool({ name: 'voice.whoami', arguments: {} }));
      // subject | scopes | protocol | request id | x-tenant | authorization
      expect(text.split('|')[5]).toBe(`Bearer ${TOKEN}`);
    } finally {
      await client.close();
      await server.stop();
    }
    expect(server.stderr()).toContain(
      'warning: plugins with the plugin context receive the request headers authorization as they are',
    );
    // The warning names the header, never a caller's credential.
    expect(server.stderr()).not.toContain(TOKEN);
  }, 60_000);
});

describe('serve --metrics on an address other machines reach', () => {
  it.each([
    ['0.0.0.0', 'text', true],
    ['0.0.0.0', 'json', true],
    ['127.0.0.1', 'text', false],
  ])(
    '--metrics %s:PORT (%s logs): warned about: %s',
    async (host, format, warned) => {
      const port = await freePort();
      const server = await startHttp([
        '--plugin',
        fixture('voice'),
        '--metrics',
        `${host}:${port}`,
        '--log-format',
        format,
      ]);
      try {
        const scrape = await fetch(`http://127.0.0.1:${port}/metrics`);
        expect(scrape.status).toBe(200);
      } finally {
        await server.stop();
      }
      const warning = `warning: the metrics endpoint http://${host}:${port}/metrics is bound to ${host}, reachable from other machines, and has no authentication`;
      if (!warned) {
        expect(server.stderr()).not.toContain('warning: the metrics endpoint');
        return;
      }
      if (format === 'text') expect(server.stderr()).toContain(`entropic-mcp serve: ${warning}`);
      else {
        const records = server
          .stderr()
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => JSON.parse(line) as { level: string; msg: string });
        expect(records.find((r) => r.msg.startsWith(warning))?.level).toBe('warn');
      }
    },
    60_000,
  );
});

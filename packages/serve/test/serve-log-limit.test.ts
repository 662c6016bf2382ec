/**
 * A plugin logging in a tight loop through its plugin context cannot flood the client: `serve` lets one call send
 * at most its log limit a second (default 100; `--plugin-log-limit`, `mcp.plugin_log_limit`), drops the rest, and
 * says in one warning per second how many it dropped. Real parts: the compiled `voice` fixture logging 100,000
 * times, the official SDK client, both hosting modes; another client's calls go on meanwhile.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { connectHttp, examplePlugins, startHttp, tempDir, textOf } from './support/serve-helpers.js';

const ECHO = examplePlugins().find((p) => p.endsWith('echo.so')) as string;

interface Heard {
  /** `line` of every plugin log that reached the client. */
  lines: number[];
  /** `dropped` of every warning that some were dropped. */
  dropped: number[];
}

/** Calls voice.chatter {n} with the client's log level at debug; what reached the client, and how long it took. */
async function chatter(client: Client, n: number): Promise<Heard & { ms: number }> {
  const heard: Heard = { lines: [], dropped: [] };
  client.setNotificationHandler(LoggingMessageNotificationSchema, (note) => {
    const data = note.params.data as { line?: number; dropped?: number };
    if (typeof data.line === 'number') heard.lines.push(data.line);
    if (typeof data.dropped === 'number') {
      // Counted only when it comes as the warning of the plugin's logger.
      if (note.params.level === 'warning' && note.params.logger === 'voice') heard.dropped.push(data.dropped);
    }
  });
  await client.setLoggingLevel('debug');
  const started = Date.now();
  const result = await client.callTool({ name: 'voice.chatter', arguments: { n } }, undefined, {
    timeout: 120_000,
  });
  const ms = Date.now() - started;
  expect(textOf(result)).toBe('chattered');
  return { ...heard, ms };
}

/** Every message is accounted for, and no more than `limit` left in any second of the call. */
function expectLimited(heard: Heard & { ms: number }, n: number, limit: number): void {
  const seconds = Math.ceil(heard.ms / 1000) + 1;
  const dropped = heard.dropped.reduce((a, b) => a + b, 0);
  expect(heard.lines.length + dropped).toBe(n);
  expect(heard.lines.length).toBeGreaterThanOrEqual(limit);
  expect(heard.lines.length).toBeLessThanOrEqual(limit * seconds);
  expect(heard.dropped.length).toBeGreaterThanOrEqual(1);
  expect(heard.dropped.length).toBeLessThanOrEqual(seconds);
  // The ones that left are the first of each second, in order.
  expect(heard.lines.slice(0, limit)).toEqual(Array.from({ length: limit }, (_, i) => i + 1));
}

for (const isolation of ['process', 'none'] as const) {
  describe(`serve --isolation ${isolation}: a plugin logging in a tight loop`, () => {
    it('reaches the client as at most 100 logs a second and a count of the rest; other calls go on', async () => {
      const server = await startHttp([
        '--plugin',
        fixture('voice'),
        '--plugin',
        ECHO,
        '--isolation',
        isolation,
      ]);
      const noisy = await connectHttp(server.url);
      const other = await connectHttp(server.url);
      try {
        let done = false;
        let slowest = 0;
        let calls = 0;
        const meanwhile = (async () => {
          while (!done) {
            const started = Date.now();
            const answer = await other.callTool({ name: 'echo.echo', arguments: { text: 'hi' } });
            expect(textOf(answer)).toBe('hi');
            slowest = Math.max(slowest, Date.now() - started);
            calls++;
          }
        })();
        const heard = await chatter(noisy, 100_000);
        done = true;
        await meanwhile;
        expectLimited(heard, 100_000, 100);
        expect(calls).toBeGreaterThan(0);
        // Generous for a loaded two-core machine; 100,000 notifications on the other client's way take far longer.
        expect(slowest).toBeLessThan(5_000);
      } finally {
        await noisy.close();
        await other.close();
        await server.stop();
      }
    }, 180_000);
  });
}

describe('serve: the log limit is configured', () => {
  it('by mcp.plugin_log_limit in the config file', async () => {
    const dir = tempDir('log-limit');
    const config = join(dir, 'serve.yaml');
    writeFileSync(config, `mcp:\n  plugin_log_limit: 5\n  plugins: [${JSON.stringify(fixture('voice'))}]\n`);
    const server = await startHttp(['--config', config, '--isolation', 'none']);
    const client = await connectHttp(server.url);
    try {
      expectLimited(await chatter(client, 2_000), 2_000, 5);
    } finally {
      await client.close();
      await server.stop();
    }
  }, 60_000);

  it('by --plugin-log-limit 0: no limit, every message reaches the client', async () => {
    const server = await startHttp(['--plugin', fixture('voice'), '--plugin-log-limit', '0']);
    const client = await connectHttp(server.url);
    try {
      const heard = await chatter(client, 2_000);
      expect(heard.lines).toEqual(Array.from({ length: 2_000 }, (_, i) => i + 1));
      expect(heard.dropped).toEqual([]);
    } finally {
      await client.close();
      await server.stop();
    }
  }, 60_000);
});

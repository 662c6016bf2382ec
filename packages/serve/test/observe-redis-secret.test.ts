/**
 * The Redis password never reaches serve's output: a real redis-server with `requirepass`, `serve --redis
 * redis://:PASSWORD@…` in both log formats, and the lines that name the Redis URL (the start-up report, a refused
 * start-up when the password is wrong or Redis is down), plus a stall and a restart of Redis while serving. The
 * password has a character that must be percent-encoded in the URL, so neither its encoded nor its plain form
 * may appear.
 */
import { randomBytes } from 'node:crypto';
import { ECHO_PLUGIN } from '@entropic-mcp/test-kit/cluster';
import { openLegacySession, rawRequest } from '@entropic-mcp/test-kit/raw-mcp';
import { type RedisProcess, startRedis } from '@entropic-mcp/test-kit/redis-server';
import { waitForValue } from '@entropic-mcp/test-kit/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runServe, startHttp } from './support/serve-helpers.js';

/** The part of the password that must never be printed, in any form. */
const MARK = randomBytes(12).toString('hex');
const PASSWORD = `pw${MARK}/x`;
let redis: RedisProcess;

beforeAll(async () => {
  redis = await startRedis({ args: ['--requirepass', PASSWORD] });
}, 60_000);

afterAll(async () => {
  await redis?.stop();
});

function urlWith(password: string): string {
  return `redis://:${encodeURIComponent(password)}@127.0.0.1:${redis.port}`;
}

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

for (const format of ['json', 'text'] as const) {
  describe(`serve --redis with a password, --log-format ${format}`, () => {
    const common = ['--log-format', format, '--redis-timeout', '1000', '--plugin', ECHO_PLUGIN as string];

    it('names the Redis it uses at start-up, through a stall and a restart of Redis, without the password', async () => {
      const server = await startHttp(['--redis', urlWith(PASSWORD), ...common]);
      let stdout = '';
      server.child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      try {
        expect(server.stderr()).toContain(
          `shared state on Redis at redis://:[REDACTED]@127.0.0.1:${redis.port}`,
        );
        await openLegacySession(server.url);
        redis.pause();
        try {
          const stalled = await rawRequest(server.url, 'POST', INIT, undefined, {}, 20_000);
          expect(stalled.status).toBe(503);
        } finally {
          redis.resume();
        }
        await redis.kill();
        const down = await rawRequest(server.url, 'POST', INIT, undefined, {}, 20_000);
        expect(down.status).toBe(503);
        await redis.restart();
        // Serving again once Redis is back (the connections reconnect with the password).
        await waitForValue(
          () => openLegacySession(server.url).catch(() => undefined),
          'a new session once Redis is back',
          30_000,
        );
      } finally {
        await server.stop();
      }
      const output = server.stderr() + stdout;
      expect(output).not.toContain(MARK);
      if (format === 'json') {
        for (const line of server
          .stderr()
          .split('\n')
          .filter((l) => l.trim() !== ''))
          expect(() => JSON.parse(line)).not.toThrow();
      }
    }, 120_000);

    it.each([
      ['a wrong password', () => urlWith(`wrong${PASSWORD}`), false],
      ['Redis down', () => urlWith(PASSWORD), true],
    ])(
      'refuses to start with %s, naming the URL without the password',
      async (_, url, stopRedis) => {
        if (stopRedis) await redis.kill();
        try {
          const run = await runServe(['--http', '127.0.0.1:0', '--redis', url(), ...common]);
          expect(run.code).toBe(1);
          expect(run.stderr).toMatch(
            new RegExp(`Redis at redis://:[^@ ]+@127\\.0\\.0\\.1:${redis.port} is not reachable`),
          );
          expect(run.stderr + run.stdout).not.toContain(MARK);
        } finally {
          if (stopRedis) await redis.restart();
        }
      },
      60_000,
    );
  });
}

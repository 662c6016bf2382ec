/**
 * `serve --workers 2` stopped by SIGTERM while a worker that died is being replaced: the replacement is still
 * starting and cannot hear the primary's "drain" message yet, so it must be stopped another way, or the
 * primary waits for it for ever (a deploy that overlaps a crash would hang).
 */

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { SCALE_TOOLS } from '@entropic-mcp/test-kit/cluster';
import { freePort } from '@entropic-mcp/test-kit/ports';
import { callTool, openLegacySession } from '@entropic-mcp/test-kit/raw-mcp';
import { type RedisProcess, startRedis } from '@entropic-mcp/test-kit/redis-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, textOf, waitFor } from './support/serve-helpers.js';

let redis: RedisProcess;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

describe('serve --workers stopped while a worker is replaced', () => {
  it('exits on SIGTERM sent just after a replacement was forked', async () => {
    const listen = await freePort();
    const args = ['serve', '--http', `127.0.0.1:${listen}`, '--workers', '2', '--redis', redis.url];
    args.push('--tools-module', SCALE_TOOLS);
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const exited = once(child, 'exit');
    try {
      await waitFor(() => /2 workers serving/.test(stderr), 60_000, 'both workers');
      const endpoint = `http://127.0.0.1:${listen}/mcp`;
      const session = await openLegacySession(endpoint);
      const answer = (await callTool(endpoint, session, 1, 'scale.pid')).message?.result;
      const worker = Number(textOf(answer).split(':')[0]);
      process.kill(worker, 'SIGKILL');
      await waitFor(() => /starting another/.test(stderr), 20_000, 'a replacement worker');
      child.kill('SIGTERM');
      const [code] = await Promise.race([
        exited,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`serve did not exit 30 s after SIGTERM:\n${stderr}`)), 30_000),
        ),
      ]);
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    }
  }, 120_000);
});

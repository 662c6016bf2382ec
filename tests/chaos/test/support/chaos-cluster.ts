/**
 * The deployment the chaos scenarios run against: the scale-out test cluster (redis-server, three
 * `serve --http --redis` processes, HAProxy round robin) with bearer tokens for three principals, the
 * chaos tools module, a cut-on-cue TCP proxy in front of HAProxy, and a Redis connection for reading
 * what the event logs hold.
 */

import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type ScaleCluster,
  type ScaleClusterOptions,
  startScaleCluster,
} from '@entropic-mcp/test-kit/cluster';
import { tempDir } from '@entropic-mcp/test-kit/temp';
import { Redis } from 'ioredis';
import { type CutProxy, startCutProxy } from './cut-proxy.js';

export const CHAOS_TOOLS = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/chaos/tools.mjs');

/** The principals: the load's, a second one that tries to use the load's sessions, one that abandons streams. */
export interface Tokens {
  readonly load: string;
  readonly second: string;
  readonly abandon: string;
}

export interface ChaosCluster {
  readonly scale: ScaleCluster;
  readonly proxy: CutProxy;
  readonly tokens: Tokens;
  /** Reads the deployment's Redis (event logs); reconnects by itself after a Redis restart. */
  readonly redis: Redis;
  /** How many times each payload's call ran to completion, over every process. */
  executions(): Map<string, number>;
  stop(): Promise<void>;
}

/**
 * `extraArgs`: more `serve` arguments for every process; `more`: more config lines (`mcp`) and one
 * process's own arguments and environment (`perNode`).
 */
export async function startChaosCluster(
  extraArgs: readonly string[] = [],
  more: Pick<ScaleClusterOptions, 'mcp' | 'perNode'> = {},
): Promise<ChaosCluster> {
  const root = tempDir('chaos');
  const token = () => randomBytes(24).toString('base64url');
  const tokens: Tokens = { load: token(), second: token(), abandon: token() };
  const tokenFile = join(root, 'tokens');
  writeFileSync(tokenFile, `${Object.values(tokens).join('\n')}\n`);
  const args = ['--auth-token-file', tokenFile, '--tools-module', CHAOS_TOOLS, '--root', root];
  // Keep-alive comments every second: abandoned streams are found within seconds, not the default 15 s.
  args.push('--sse-keep-alive', '1000', ...extraArgs);
  // Every task-capable call becomes a task at once (as the scenarios expect), unless the caller sets `tasks:`.
  const mcp = more.mcp ?? [];
  const tasks = mcp.some((line) => line.startsWith('  tasks:')) ? [] : ['  tasks:', '    sync_window_ms: 0'];
  const scale = await startScaleCluster(3, { ...more, mcp: [...mcp, ...tasks], args });
  const proxy = await startCutProxy(scale.proxy.port);
  const redis = new Redis(scale.redis.url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  redis.on('error', () => {});
  return {
    scale,
    proxy,
    tokens,
    redis,
    executions() {
      const file = join(root, 'executions.log');
      const counts = new Map<string, number>();
      if (!existsSync(file)) return counts;
      for (const line of readFileSync(file, 'utf8').split('\n'))
        if (line !== '') counts.set(line, (counts.get(line) ?? 0) + 1);
      return counts;
    },
    async stop() {
      redis.disconnect();
      await proxy.stop();
      await scale.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

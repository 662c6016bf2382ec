/**
 * `serve --workers N`: a primary process that forks N serve processes sharing one HTTP port
 * (node:cluster), each with its own plugin hosts, all on the same Redis, and all with the same MRTR
 * sealing key. The primary serves nothing itself; it replaces a worker that dies and stops them all
 * on SIGINT/SIGTERM.
 */

import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { type ServeArgs, UsageError } from './config/args.js';
import { loadServeConfig } from './config/parse.js';
import { resolveServePlan } from './config/plan.js';
import { whenParentGone } from './orphan.js';

/** The environment variable carrying a worker's index (0 prints the start-up report). */
export const WORKER_INDEX_ENV = 'ENTROPIC_MCP_WORKER';

/** Refuse `--workers` > 1 without Redis, saying why; returns the plan's Redis URL and sealing key. */
export async function checkWorkers(args: ServeArgs): Promise<{ redis: string; key: string | undefined }> {
  const file = args.configFile === undefined ? undefined : await loadServeConfig(args.configFile);
  const plan = resolveServePlan(args, file, process.cwd());
  if (plan.redis === undefined) {
    throw new UsageError(
      `--workers ${plan.workers} needs --redis URL (or mcp.redis): each worker is a separate process with its own memory, so without shared state a legacy session, a Last-Event-ID resumption or a subscriptions/listen stream breaks whenever a request reaches another worker`,
    );
  }
  return { redis: plan.redis, key: plan.requestStateKey };
}

/** Run the primary until a signal; resolves with the exit code. */
export async function runWorkers(
  cliPath: string,
  argv: readonly string[],
  args: ServeArgs,
  log: (text: string) => void,
): Promise<number> {
  const { key } = await checkWorkers(args);
  const count = args.workers ?? 1;
  const env = { ENTROPIC_MCP_STATE_KEY: key ?? randomBytes(32).toString('base64url') };
  cluster.setupPrimary({ exec: cliPath, args: ['serve', ...argv] });
  const byIndex = new Map<Worker, number>();
  let stopping = false;
  let ready = 0;
  return await new Promise<number>((resolve) => {
    const stopAll = (code: number): void => {
      if (stopping) return;
      stopping = true;
      const left = [...byIndex.keys()].filter((w) => !w.isDead());
      if (left.length === 0) resolve(code);
      for (const worker of left) {
        worker.once('exit', () => {
          if ([...byIndex.keys()].every((w) => w.isDead())) resolve(code);
        });
        worker.process.kill('SIGTERM');
      }
    };
    const fork = (index: number): void => {
      const worker = cluster.fork({ ...env, [WORKER_INDEX_ENV]: String(index) });
      byIndex.set(worker, index);
      let up = false;
      worker.on('message', (message: { ready?: string }) => {
        if (typeof message?.ready !== 'string' || up) return;
        up = true;
        if (++ready === count) log(`entropic-mcp serve: ${count} workers serving ${message.ready}\n`);
      });
      worker.on('exit', (code, signal) => {
        byIndex.delete(worker);
        if (stopping) return;
        if (!up) {
          log(`entropic-mcp serve: worker ${index} failed to start (exit ${code ?? signal}); stopping\n`);
          stopAll(1);
          return;
        }
        log(`entropic-mcp serve: worker ${index} died (${code ?? signal}); starting another\n`);
        fork(index);
      });
    };
    for (let i = 0; i < count; i++) fork(i);
    process.once('SIGINT', () => stopAll(0));
    process.once('SIGTERM', () => stopAll(0));
    whenParentGone(() => stopAll(0));
  });
}

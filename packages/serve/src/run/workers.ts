/**
 * `serve --workers N`: a primary process that forks N serve processes sharing one HTTP port
 * (node:cluster), each with its own plugin hosts, all on the same Redis, and all with the same MRTR
 * sealing key. The primary serves nothing itself; it replaces a worker that dies and stops them all
 * on SIGINT/SIGTERM (each drains; a second signal makes them exit at once).
 */

import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { type ServeArgs, UsageError } from '../config/args.js';
import { loadServeConfig } from '../config/parse.js';
import { resolveServePlan, type ServePlan } from '../config/plan.js';
import { serveClusterMetrics } from '../observe/index.js';
import type { ServeLog } from '../observe/log.js';
import { readOtelEnv } from '../observe/otel-env.js';
import { whenParentGone } from './orphan.js';

/** The environment variable carrying a worker's index (0 prints the start-up report). */
export const WORKER_INDEX_ENV = 'ENTROPIC_MCP_WORKER';

/** Refuse `--workers` > 1 without Redis, saying why; returns the plan's Redis URL, sealing key and metrics address. */
export async function checkWorkers(
  args: ServeArgs,
): Promise<{ redis: string; key: string | undefined; metrics: ServePlan['metrics'] }> {
  const file = args.configFile === undefined ? undefined : await loadServeConfig(args.configFile);
  const plan = resolveServePlan(args, file, process.cwd());
  if (plan.redis === undefined) {
    throw new UsageError(
      `--workers ${plan.workers} needs --redis URL (or mcp.redis): each worker is a separate process with its own memory, so without shared state a legacy session, a Last-Event-ID resumption or a subscriptions/listen stream breaks whenever a request reaches another worker`,
    );
  }
  return { redis: plan.redis, key: plan.requestStateKey, metrics: plan.metrics };
}

/** What the primary tells a worker when it stops: drain, or exit at once. */
export interface WorkerStop {
  readonly stop: 'drain' | 'now';
}

function tell(worker: Worker, stop: WorkerStop['stop']): void {
  try {
    worker.send({ stop } satisfies WorkerStop);
  } catch {
    worker.process.kill(stop === 'now' ? 'SIGKILL' : 'SIGTERM');
  }
}

/** Run the primary until a signal; resolves with the exit code. */
export async function runWorkers(
  cliPath: string,
  argv: readonly string[],
  args: ServeArgs,
  log: ServeLog,
  version: string,
): Promise<number> {
  const { key, metrics } = await checkWorkers(args);
  const count = args.workers ?? 1;
  // One endpoint for all workers, on the primary (observe/cluster-metrics.ts says how it adds them up).
  const at = metrics ?? readOtelEnv(process.env).prometheus;
  const endpoint = at === undefined ? undefined : await serveClusterMetrics(at, log, version);
  if (endpoint !== undefined) log.log('info', `metrics at ${endpoint.url} (every worker, added up)`);
  const env = { ENTROPIC_MCP_STATE_KEY: key ?? randomBytes(32).toString('base64url') };
  cluster.setupPrimary({ exec: cliPath, args: ['serve', ...argv] });
  const byIndex = new Map<Worker, number>();
  /** Workers that said they serve: only they listen for the primary's messages. */
  const serving = new Set<Worker>();
  let stopping = false;
  let ready = 0;
  return await new Promise<number>((resolve) => {
    const stopAll = (code: number): void => {
      if (stopping) return;
      stopping = true;
      const left = [...byIndex.keys()].filter((w) => !w.isDead());
      const finish = (): void => {
        if (endpoint === undefined) resolve(code);
        else void endpoint.close().then(() => resolve(code));
      };
      if (left.length === 0) finish();
      for (const worker of left) {
        worker.once('exit', () => {
          if ([...byIndex.keys()].every((w) => w.isDead())) finish();
        });
        // One still starting (a replacement forked a moment ago) has nothing to drain and would not hear a
        // message yet: a signal during start-up ends it at once.
        if (serving.has(worker)) tell(worker, 'drain');
        else worker.process.kill('SIGTERM');
      }
    };
    const fork = (index: number): void => {
      const worker = cluster.fork({ ...env, [WORKER_INDEX_ENV]: String(index) });
      byIndex.set(worker, index);
      endpoint?.attach(worker);
      let up = false;
      worker.on('message', (message: { ready?: string }) => {
        if (typeof message?.ready !== 'string' || up) return;
        up = true;
        serving.add(worker);
        if (stopping) {
          tell(worker, 'drain');
          return;
        }
        if (++ready === count) log.log('info', `${count} workers serving ${message.ready}`);
      });
      worker.on('exit', (code, signal) => {
        byIndex.delete(worker);
        serving.delete(worker);
        if (stopping) return;
        if (!up) {
          log.log('error', `worker ${index} failed to start (exit ${code ?? signal}); stopping`);
          stopAll(1);
          return;
        }
        log.log('error', `worker ${index} died (${code ?? signal}); starting another`);
        fork(index);
      });
    };
    for (let i = 0; i < count; i++) fork(i);
    // The first signal lets every worker drain; a second one makes them exit at once. Told over IPC, not
    // by signal: a worker may get the same signal straight from the terminal or the service manager.
    const onSignal = (): void => {
      if (!stopping) stopAll(0);
      else for (const worker of byIndex.keys()) if (!worker.isDead()) tell(worker, 'now');
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    whenParentGone(() => stopAll(0));
  });
}

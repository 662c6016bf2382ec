// `entropic-mcp serve`: C plugins in front of any MCP client, over stdio (default) or Streamable HTTP.
import cluster from 'node:cluster';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { usageHint } from '../cli-kit/shared.js';
import { parseServeArgs, SERVE_USAGE, type ServeArgs, UsageError } from '../config/args.js';
import { loadServeConfig } from '../config/parse.js';
import { resolveServePlan, type ServePlan } from '../config/plan.js';
import { type Observability, startObservability } from '../observe/index.js';
import { createServeLog, type ServeLog } from '../observe/log.js';
import { OtelEnvError } from '../observe/otel-env.js';
import { whenParentGone } from '../run/orphan.js';
import { type ServeHandle, startServe } from '../run/start.js';
import { runWorkers, WORKER_INDEX_ENV, type WorkerStop } from '../run/workers.js';

/** The CLI entry (`dist/cli.js`), so the printed client config runs this same installation. */
const CLI_PATH = fileURLToPath(new URL('../cli.js', import.meta.url));
const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

/** Serve's log; plain text until the command line has been read. */
let log: ServeLog = createServeLog('text');

function fail(message: string): void {
  log.log('error', message);
}

/** Where `/metrics` is served, as the serve plan decides it (`--metrics`, else the config's `mcp.metrics`). */
async function metricsAddress(args: ServeArgs): Promise<ServePlan['metrics']> {
  const file = args.configFile === undefined ? undefined : await loadServeConfig(args.configFile);
  return resolveServePlan(args, file, process.cwd()).metrics;
}

/** The exit status of a process ended by `signal` (128 + its number). */
function signalled(signal: string): number {
  return 128 + (constants.signals[signal as 'SIGINT' | 'SIGTERM'] ?? 0);
}

/**
 * SIGINT/SIGTERM, listened for from before start-up. Until the server is up a signal ends the process at once
 * (exit 128 + signal number, plugin hosts die with it); afterwards the first one drains and closes the server
 * and the plugins, and a second one exits at once. Listening early closes the gap between the start-up
 * report and the shutdown handler.
 */
function listenForSignals(): { onSignal: (stop: (why: string) => void) => void } {
  let stop = (why: string): void => {
    log.log('info', `${why} during start-up, exiting`);
    process.exit(signalled(why));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  return {
    onSignal: (next) => {
      stop = next;
    },
  };
}

/**
 * Resolves once a signal arrives (or stdin ends, for stdio, or the parent process is gone), after the server and
 * plugins closed.
 */
function untilShutdown(
  handle: ServeHandle,
  stdio: boolean,
  signals: ReturnType<typeof listenForSignals>,
): Promise<number> {
  return new Promise((resolve) => {
    let done = false;
    const stop = (why: string) => {
      if (done) {
        if (why !== 'SIGINT' && why !== 'SIGTERM') return;
        log.log('warn', `${why} again: exiting at once; calls still in flight are lost`);
        process.exit(signalled(why));
      }
      done = true;
      const drain = stdio || why === 'stdin closed' ? 0 : handle.drainTimeoutMs;
      log.log(
        'info',
        drain > 0
          ? `${why}: draining for up to ${drain} ms (health check failing, new work refused; a second signal exits at once), then closing plugins`
          : `${why}, closing plugins`,
      );
      // Plugin hosts may be unreferenced handles: keep the loop alive until they are closed.
      const keepAlive = setInterval(() => {}, 1_000);
      handle
        .close({ graceMs: drain })
        .then(
          () => 0,
          (error: unknown) => {
            fail(`error while closing: ${(error as Error).message}`);
            return 1;
          },
        )
        .then((code) => {
          clearInterval(keepAlive);
          resolve(code);
        });
    };
    signals.onSignal(stop);
    whenParentGone(() => stop('the parent process is gone'));
    // A worker of `--workers`: the primary says when to drain and when to exit at once.
    if (cluster.isWorker)
      process.on('message', (message: Partial<WorkerStop> | null) => {
        if (message?.stop === 'drain') stop('the primary is stopping');
        else if (message?.stop === 'now') {
          log.log('warn', 'the primary is stopping at once: exiting; calls still in flight are lost');
          process.exit(signalled('SIGTERM'));
        }
      });
    if (stdio) void handle.ended.then(() => stop('stdin closed'));
  });
}

export async function run(argv: string[]): Promise<number> {
  let args: ServeArgs;
  try {
    args = parseServeArgs(argv);
  } catch (error) {
    fail((error as Error).message);
    process.stderr.write(usageHint('serve'));
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${SERVE_USAGE}\n`);
    return 0;
  }
  log = createServeLog(args.logFormat ?? 'text');
  if ((args.workers ?? 1) > 1 && cluster.isPrimary) {
    try {
      return await runWorkers(CLI_PATH, argv, args, log, version);
    } catch (error) {
      fail((error as Error).message);
      return error instanceof UsageError ? 2 : 1;
    }
  }
  const signals = listenForSignals();
  const quiet = cluster.isWorker && process.env[WORKER_INDEX_ENV] !== '0';
  let observed: Observability;
  let handle: ServeHandle;
  try {
    observed = await startObservability({
      metrics: await metricsAddress(args),
      log,
      version,
      worker: cluster.isWorker,
    });
  } catch (error) {
    fail((error as Error).message);
    return error instanceof UsageError || error instanceof OtelEnvError ? 2 : 1;
  }
  try {
    handle = await startServe(args, {
      stdioCommand: [process.execPath, CLI_PATH],
      log,
      ...(quiet ? { report: () => {} } : {}),
    });
  } catch (error) {
    fail((error as Error).message);
    await observed.close();
    return error instanceof UsageError ? 2 : 1;
  }
  if (observed.metricsUrl !== undefined) log.log('info', `metrics at ${observed.metricsUrl}`);
  if (cluster.isWorker) process.send?.({ ready: handle.url });
  const code = await untilShutdown(handle, args.transport.kind === 'stdio', signals);
  await observed.close();
  // Plugins and transport are closed; stdin may still hold the event loop open, so leave explicitly.
  process.stderr.write('', () => process.exit(code));
  return code;
}

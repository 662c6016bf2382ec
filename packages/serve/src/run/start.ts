/**
 * The `serve` runtime: read the config, load every plugin, mount their tools on one MCP server, start the
 * transport, and say on stderr what is served and how to connect. Stdout is left to the stdio transport.
 */
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { DirectivesHook, Plugin } from '@entropic-mcp/loader';
import { findCollisions, mountPlugin, ToolCollisionError, ToolRegistrationError } from '@entropic-mcp/loader';
import type { PrivateStdio } from '@entropic-mcp/loader/addon';
import { McpServer } from '@entropic-mcp/server';
import { serveStdio } from '@entropic-mcp/server/stdio';
import { type ServeArgs, UsageError } from '../config/args.js';
import { credentialHeadersWarning } from '../config/context-headers.js';
import { ServeError } from '../config/errors.js';
import { handlerOptions } from '../config/option-uses.js';
import { loadServeConfig } from '../config/parse.js';
import { resolveServePlan } from '../config/plan.js';
import { scopesWithoutAuthWarning } from '../config/scopes.js';
import { unknownTools } from '../config/tasks.js';
import { createServeLog, type ServeLog } from '../observe/log.js';
import { loadServeAuth, type ServeAuth } from './auth.js';
import { formatBanner } from './banner.js';
import { describeLoadFailure, type LoadedPlugin, loadAll } from './load-all.js';
import { rateLimitsOf } from './rate-limits.js';
import { openSharedState, type SharedServe } from './shared.js';
import { closeToolsModules, type LoadedToolsModule, loadToolsModules } from './tools-modules.js';

/** Start-up refused: a plugin failed to load or names clash. The message lists every reason. */
export class ServeStartError extends ServeError<'ENTROPIC_MCP_START_FAILED'> {
  override readonly name = 'ServeStartError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('ENTROPIC_MCP_START_FAILED', message, options);
  }
}

export interface StartOptions {
  /** Where the start-up report goes. Default: `log`'s report, else process.stderr with secrets masked. */
  readonly report?: (text: string) => void;
  /** The command that starts this server over stdio, for the printed client config. */
  readonly stdioCommand?: readonly string[];
  readonly onDirectives?: DirectivesHook;
  readonly cwd?: string;
  /** Serve's log (text or JSON): the report, HTTP errors, and the secrets it must never show. */
  readonly log?: ServeLog;
}

export interface ServeHandle {
  readonly plugins: readonly Plugin[];
  /** The Streamable HTTP endpoint, when serving HTTP. */
  readonly url?: string;
  /** Resolves when the transport ended by itself (stdio: stdin closed); HTTP never ends by itself. */
  readonly ended: Promise<void>;
  /** The drain a signal asks for (`--drain-timeout`, `mcp.drain_timeout_ms`): `close({ graceMs })`. */
  readonly drainTimeoutMs: number;
  /**
   * Stops the transport (HTTP: after a drain of `graceMs`, default none: the health check fails, new work
   * is refused, calls and tasks in flight may finish, then what is left gets an error), then the server
   * (tasks left fail), then every plugin. Idempotent.
   */
  close(options?: { readonly graceMs?: number }): Promise<void>;
}

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };
/** The server's handler time limit never cuts a plugin's own (longer) limit short. */
const HANDLER_TIMEOUT_MS = 30_000;
/**
 * Plugin calls in flight at once across all plugins. Each plugin instance already runs its calls one
 * at a time, so this only decides how many plugins (or queued calls) can be busy together.
 */
export const DEFAULT_SERVE_CONCURRENCY = 64;

/** Rebuilds an equivalent `serve` command line with absolute paths, for a client to run over stdio. */
export function stdioArgs(args: ServeArgs, root: string): string[] {
  const out = ['serve'];
  if (args.configFile !== undefined) out.push('--config', args.configFile);
  for (const plugin of args.plugins) out.push('--plugin', plugin);
  out.push('--root', root);
  if (args.isolation !== undefined) out.push('--isolation', args.isolation);
  if (args.timeoutMs !== undefined) out.push('--timeout', String(args.timeoutMs));
  if (args.concurrency !== undefined) out.push('--concurrency', String(args.concurrency));
  for (const file of args.toolsModules) out.push('--tools-module', file);
  if (args.instances !== undefined) out.push('--instances', String(args.instances));
  if (args.keepGoing) out.push('--keep-going');
  for (const header of args.contextHeaders) out.push('--context-header', header);
  if (args.contextHeadersAllowCredentials) out.push('--context-header-allow-credentials');
  if (args.pluginLogLimit !== undefined) out.push('--plugin-log-limit', String(args.pluginLogLimit));
  return out;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** The password of a Redis URL, if it has one. */
function passwordOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return decodeURIComponent(new URL(url).password) || undefined;
  } catch {
    return undefined;
  }
}

/** A `task_support` or `scopes` mapping that names a tool the plugin does not have is a mistake worth stopping for. */
function refuseUnknownTools(loaded: readonly LoadedPlugin[]): void {
  for (const { plugin, entry } of loaded) {
    const tools = plugin.tools.map((t) => t.name);
    for (const [key, setting] of [
      ['task_support', entry.taskSupport],
      ['scopes', entry.scopes],
    ] as const) {
      const strange = unknownTools(setting, tools);
      if (strange.length === 0) continue;
      throw new UsageError(
        `${key} of ${entry.path} names ${strange.map((t) => `"${t}"`).join(', ')}, which plugin "${plugin.name}" does not have (its tools: ${tools.join(', ')})`,
      );
    }
  }
}

async function closeAll(plugins: readonly Plugin[]): Promise<void> {
  await Promise.allSettled(plugins.map((p) => p.close()));
}

export async function startServe(args: ServeArgs, options: StartOptions = {}): Promise<ServeHandle> {
  const log = options.log;
  // Without a log of the caller's, the report still goes through one, so that no secret is printed.
  const secrets = log ?? createServeLog('text');
  const report = options.report ?? secrets.report;
  const file = args.configFile === undefined ? undefined : await loadServeConfig(args.configFile);
  const plan = resolveServePlan(args, file, options.cwd ?? process.cwd());
  secrets.secret(plan.requestStateKey);
  secrets.secret(passwordOf(plan.redis));
  const handsCredentials = credentialHeadersWarning(plan.contextHeaders);
  if (handsCredentials !== undefined) report(handsCredentials);
  const hiddenByScopes = scopesWithoutAuthWarning(plan.plugins, args.auth !== undefined);
  if (hiddenByScopes !== undefined) report(hiddenByScopes);
  if (plan.plugins.length === 0 && plan.toolsModules.length === 0) {
    throw new UsageError(
      'nothing to serve: give --plugin PATH, --config FILE listing plugins under mcp: plugins:, or --tools-module FILE',
    );
  }

  if (!(await isDirectory(plan.root))) {
    throw new UsageError(`the working directory ${plan.root} (--root or mcp.working_dir) is not a directory`);
  }

  // Before any plugin runs (or the relay of their stderr starts), serve knows every secret it was given: what a
  // plugin prints is masked from its first line.
  let auth: ServeAuth | undefined;
  try {
    auth =
      plan.transport.kind === 'http' && args.auth !== undefined
        ? await loadServeAuth(args.auth, (error) => secrets.log('warn', `auth: ${error.message}`))
        : undefined;
  } catch (error) {
    throw error instanceof UsageError
      ? error
      : new ServeStartError((error as Error).message, { cause: error });
  }
  for (const token of auth?.secrets ?? []) secrets.secret(token);

  // In-process plugins share fds 0 and 1: fd 1 is pointed at fd 2, so what they print goes where an isolated
  // host's does (over stdio the protocol moves to private descriptors first). What they write to fd 2 goes through
  // a relay that masks it and makes it serve's log lines, JSON or tagged text (set up before fd 1 is pointed at fd 2).
  const inProcess = plan.plugins.find((p) => p.isolation === 'none');
  if (log !== undefined && inProcess !== undefined) {
    const paths = plan.plugins.filter((p) => p.isolation === 'none').map((p) => p.path);
    await (await import('../observe/plugin-stderr.js')).relayPluginStderr(log, paths);
  }
  let privateStdio: PrivateStdio | undefined;
  if (inProcess !== undefined) {
    const stdio = await import('@entropic-mcp/loader/addon');
    if (plan.transport.kind === 'stdio') privateStdio = stdio.protectStdio(inProcess.path);
    else stdio.setStdioAside(inProcess.path);
  }
  let shared: SharedServe;
  try {
    shared = await openSharedState(plan, report);
  } catch (error) {
    throw new ServeStartError((error as Error).message, { cause: error });
  }
  const { loaded, failed } = await loadAll(plan.plugins, plan.root, log?.pluginOutput, secrets.masker);
  const failures = failed.map(describeLoadFailure);
  const plugins = loaded.map((l) => l.plugin);
  if (failures.length > 0 && !plan.keepGoing) {
    await closeAll(plugins);
    await shared.close();
    throw new ServeStartError(
      `${failures.length} plugin(s) failed to load:\n  ${failures.join('\n  ')}\n(--keep-going serves the others)`,
    );
  }

  const longest = Math.max(0, ...plan.plugins.map((p) => p.timeoutMs ?? 0));
  const server = new McpServer(
    { name: 'entropic-mcp', version, description: 'C plugins served by entropic-mcp' },
    {
      handlerTimeoutMs: Math.max(HANDLER_TIMEOUT_MS, longest + 5_000),
      maxConcurrency: args.concurrency ?? DEFAULT_SERVE_CONCURRENCY,
      capabilities: { tools: true },
      ...shared.server,
      ...rateLimitsOf(plan, shared.rateLimitStore, report),
    },
  );
  let stopTransport: (graceMs: number) => Promise<void> | void = () => {};
  let url: string | undefined;
  let markEnded: () => void = () => {};
  let modules: LoadedToolsModule[] = [];
  const ended = new Promise<void>((resolve) => {
    markEnded = resolve;
  });
  try {
    const mountOptions = {
      ...(options.onDirectives === undefined ? {} : { onDirectives: options.onDirectives }),
      ...(plan.contextHeaders.length === 0 ? {} : { contextHeaders: plan.contextHeaders }),
    };
    const clashes = findCollisions(plugins);
    if (clashes.length > 0) {
      throw new ToolCollisionError(`refusing to serve clashing names:\n  ${clashes.join('\n  ')}`);
    }
    refuseUnknownTools(loaded);
    for (const { plugin, entry } of loaded) {
      if (!plugins.includes(plugin)) continue;
      try {
        const taskSupport = entry.taskSupport === undefined ? {} : { taskSupport: entry.taskSupport };
        const scopes = entry.scopes === undefined ? {} : { scopes: entry.scopes };
        mountPlugin(server, plugin, { ...mountOptions, ...taskSupport, ...scopes });
      } catch (error) {
        if (!(error instanceof ToolRegistrationError) || !plan.keepGoing) throw error;
        failures.push(`${plugin.path}: ${error.code}: ${error.message}`);
        plugins.splice(plugins.indexOf(plugin), 1);
        await plugin.close();
      }
    }
    modules = await loadToolsModules(plan.toolsModules, server, { root: plan.root }, plan.toolsModuleTasks);
    if (plan.transport.kind === 'http') {
      // HTTP's modules are loaded only when it is served: a stdio start does without them.
      const { serveHttp } = await import('@entropic-mcp/server/http');
      const http = await serveHttp(server, {
        host: plan.transport.host,
        port: plan.transport.port,
        ...shared.http,
        ...plan.limits,
        ...(auth === undefined ? {} : { auth: auth.options }),
        ...(log === undefined
          ? {}
          : { onError: (error: Error) => log.log('error', `http: ${error.message}`) }),
        ...handlerOptions(plan),
      });
      url = http.url;
      stopTransport = (graceMs) => http.close({ graceMs });
    } else {
      // The process exits from `serve`'s own shutdown, after the plugins are closed.
      const session = await serveStdio(server, { exitOnClose: false, ...privateStdio });
      session.onclose = markEnded;
      stopTransport = () => session.close();
    }
  } catch (error) {
    await closeToolsModules(modules);
    await closeAll(plugins);
    await shared.close();
    throw error instanceof UsageError
      ? error
      : new ServeStartError((error as Error).message, { cause: error });
  }

  const stdioCommand = options.stdioCommand ?? [process.execPath, process.argv[1] ?? 'entropic-mcp'];
  report(
    formatBanner({
      plugins,
      toolsModules: plan.toolsModules,
      failures,
      root: plan.root,
      transport: plan.transport,
      ...(auth === undefined ? {} : { auth: auth.summary }),
      stdioCommand: [...stdioCommand, ...stdioArgs(args, plan.root)],
      ...(url === undefined ? {} : { url }),
    }),
  );

  let closing: Promise<void> | undefined;
  return {
    plugins,
    ended,
    drainTimeoutMs: plan.drainTimeoutMs,
    ...(url === undefined ? {} : { url }),
    close(closeOptions) {
      closing ??= (async () => {
        try {
          await stopTransport(closeOptions?.graceMs ?? 0);
          await server.close();
        } finally {
          await closeToolsModules(modules);
          await closeAll(plugins);
          await shared.close();
        }
      })();
      return closing;
    },
  };
}

/**
 * A scale-out deployment for tests, from real parts: a redis-server, N `entropic-mcp serve --http
 * --redis` processes (the echo example plugin, the scale tools module, one shared MRTR key, HAProxy's
 * address as `--trusted-proxy`) and an HAProxy in front configured as `docs/scaling.md` ships it (round
 * robin, no stickiness, health checks on /healthz, 503s sent again elsewhere; `X-Served-By: nodeI` names
 * the backend of each answer).
 */

import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDeployedHaproxy } from './deployed-haproxy.js';
import type { HaproxyProcess } from './haproxy.js';
import { type RedisProcess, startRedis } from './redis-server.js';
import { examplePlugins, type HttpServer, REPO_ROOT, startHttp } from './serve-process.js';
import { tempDir } from './temp.js';
import { waitFor } from './wait.js';

export const SCALE_TOOLS = join(REPO_ROOT, 'tests', 'kit', 'fixtures', 'scale-tools.mjs');
export const ECHO_PLUGIN = examplePlugins().find((p) => p.endsWith('echo.so'));

/**
 * Whether the serve process whose stderr is `stderr` is running the scale tool `tool` (`scale.wait` or
 * `scale.later`) for a call tagged `tag`: the tool says so on stderr as it starts.
 */
export function scaleStarted(stderr: string, tool: 'scale.wait' | 'scale.later', tag: string): boolean {
  return stderr.includes(`scale tools: ${tool} started [${tag}]`);
}

export interface ScaleCluster {
  readonly redis: RedisProcess;
  readonly proxy: HaproxyProcess;
  /** The serve processes, `nodes[i]` being HAProxy's `nodeI`. */
  readonly nodes: HttpServer[];
  /** The MCP endpoint through HAProxy. */
  readonly endpoint: string;
  /** The serve process HAProxy names `served` (an `X-Served-By` value). */
  node(served: string | null | undefined): HttpServer;
  /** SIGKILL node `i` and wait until it is gone. */
  kill(i: number): Promise<void>;
  /** SIGTERM node `i` (a graceful stop: it drains) and wait until it exited; its exit code. */
  terminate(i: number): Promise<number | null>;
  /** Start node `i` again (after `kill` or `terminate`) on its old port, with the same arguments. */
  restart(i: number): Promise<void>;
  /** Wait until HAProxy sends node `i` requests (its health check passed since it started). */
  routed(i: number): Promise<void>;
  stop(): Promise<void>;
}

export interface ScaleClusterOptions {
  /** More `serve` arguments for every node (an auth token file, another tools module, …). */
  readonly args?: readonly string[];
  /** More lines of the shared config file under `mcp:` (indented by two spaces already). */
  readonly mcp?: readonly string[];
  /** More `serve` arguments and environment of node `i` alone (a clock moved with libfaketime, …). */
  readonly perNode?: (i: number) => {
    readonly args?: readonly string[];
    readonly env?: Readonly<Record<string, string>>;
  };
}

export async function startScaleCluster(
  count: number,
  options: ScaleClusterOptions = {},
): Promise<ScaleCluster> {
  const dir = tempDir('scale');
  const config = join(dir, 'entropic.yaml');
  // Separate processes share the key that seals multi-round-trip requestState through the config.
  const lines = [`  request_state_key: ${randomBytes(24).toString('hex')}`, ...(options.mcp ?? [])];
  writeFileSync(config, `mcp:\n${lines.join('\n')}\n`);
  const redis = await startRedis();
  const nodes: HttpServer[] = [];
  const args = [
    '--config',
    config,
    '--redis',
    redis.url,
    '--tools-module',
    SCALE_TOOLS,
    // HAProxy connects from loopback: each request counts against the client address it forwarded.
    '--trusted-proxy',
    '127.0.0.1',
    ...(options.args ?? []),
  ];
  const startNode = (i: number, listen?: string): Promise<HttpServer> => {
    const own = options.perNode?.(i) ?? {};
    const env = own.env === undefined ? undefined : { ...own.env };
    return startHttp([...args, ...(own.args ?? [])], undefined, listen, env);
  };
  let proxy: HaproxyProcess | undefined;
  const stop = async (): Promise<void> => {
    await proxy?.stop();
    await Promise.all(nodes.filter((n) => n.child.exitCode === null).map((n) => n.stop()));
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (ECHO_PLUGIN !== undefined) args.push('--plugin', ECHO_PLUGIN);
    nodes.push(...(await Promise.all(Array.from({ length: count }, (_, i) => startNode(i)))));
    proxy = await startDeployedHaproxy(nodes.map((n) => Number(new URL(n.url).port)));
  } catch (error) {
    await stop();
    throw error;
  }
  const started = proxy;
  return {
    redis,
    proxy: started,
    nodes,
    endpoint: `${started.url}/mcp`,
    node(served) {
      const match = /^node(\d+)$/.exec(served ?? '');
      const found = match === null ? undefined : nodes[Number(match[1])];
      if (found === undefined) throw new Error(`no serve process is called ${String(served)}`);
      return found;
    },
    async kill(i) {
      const victim = nodes[i] as HttpServer;
      if (victim.child.exitCode !== null || victim.child.signalCode !== null) return;
      const gone = new Promise((r) => victim.child.once('exit', r));
      victim.child.kill('SIGKILL');
      await gone;
    },
    async terminate(i) {
      const node = nodes[i] as HttpServer;
      if (node.child.exitCode !== null || node.child.signalCode !== null) return node.child.exitCode;
      const exited = new Promise<number | null>((r) => node.child.once('exit', (code) => r(code)));
      node.child.kill('SIGTERM');
      return await exited;
    },
    async routed(i) {
      // Requests without a session are refused at once (400), each answer naming its backend.
      await waitFor(
        async () => {
          const res = await fetch(`${started.url}/mcp`, { headers: { accept: 'text/event-stream' } });
          await res.arrayBuffer();
          return res.headers.get('x-served-by') === `node${i}`;
        },
        `HAProxy to send node${i} a request`,
        30_000,
      );
    },
    async restart(i) {
      const old = nodes[i] as HttpServer;
      if (old.child.exitCode === null && old.child.signalCode === null)
        throw new Error(`node${i} is still running`);
      nodes[i] = await startNode(i, new URL(old.url).host);
    },
    stop,
  };
}

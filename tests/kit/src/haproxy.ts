/**
 * A real HAProxy for tests: HTTP mode, round robin over the given backends, no stickiness, timeouts
 * long enough for SSE streams; its own free port and temporary directory, always stopped by `stop`.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForPort } from './ports.js';

export interface HaproxyProcess {
  readonly port: number;
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * The configuration text: one frontend, one round-robin backend whose servers are `node0`, `node1`, …
 * in the order given; every answer names the server that gave it in `X-Served-By`, and every request
 * carries its client's address in `X-Forwarded-For`. Health checks
 * every 500 ms take a killed backend out after one failure. `http-no-delay` passes each SSE event on as it
 * comes, as the documented deployment does (without it progress arrives in bursts).
 */
export function haproxyConfig(port: number, backends: readonly number[]): string {
  const servers = backends.map((p, i) => `  server node${i} 127.0.0.1:${p} check inter 500 fall 1 rise 1`);
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 10m',
    '  timeout server 10m',
    '  timeout tunnel 10m',
    '  retries 2',
    '  option redispatch',
    '  option forwardfor',
    '  option http-no-delay',
    'frontend mcp',
    `  bind 127.0.0.1:${port}`,
    '  default_backend nodes',
    'backend nodes',
    '  balance roundrobin',
    '  http-response set-header X-Served-By %[srv_name]',
    ...servers,
    '',
  ].join('\n');
}

export function startHaproxy(backends: readonly number[]): Promise<HaproxyProcess> {
  return runHaproxy((port) => haproxyConfig(port, backends));
}

/**
 * Run HAProxy with the configuration `config` writes for its frontend's port (a free one), in a temporary
 * directory of its own; rejects with HAProxy's own words when it does not listen within 20 s.
 */
export async function runHaproxy(config: (port: number) => string): Promise<HaproxyProcess> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'emcp-haproxy-'));
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, config(port));
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  child.once('error', () => {});
  try {
    await waitForPort(port, 20_000, 'haproxy');
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${(error as Error).message}\n${errors}`);
  }
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

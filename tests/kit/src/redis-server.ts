/**
 * A real redis-server for tests: its own free port and temporary directory, no persistence, always
 * stopped (and its directory removed) by `stop`. It can be stopped and started again on the same port
 * to test what happens while Redis is away, or paused (SIGSTOP) to test a Redis that stalls.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForPort } from './ports.js';

export interface RedisProcess {
  readonly port: number;
  readonly url: string;
  /** Stop the server (SIGKILL when `hard`), keeping port and directory for `restart`. */
  kill(hard?: boolean): Promise<void>;
  /** Start it again on the same port (after `kill`). */
  restart(): Promise<void>;
  /** SIGSTOP: sockets stay open and nothing answers (a stall or a partition, not a closed connection). */
  pause(): void;
  /** SIGCONT after `pause`. */
  resume(): void;
  /** Stop for good and remove the temporary directory. */
  stop(): Promise<void>;
}

/** `args`: more redis-server options (`['--requirepass', PW]`). */
export async function startRedis(options: { readonly args?: readonly string[] } = {}): Promise<RedisProcess> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'emcp-redis-'));
  let child: ChildProcess | undefined;
  const launch = async (): Promise<void> => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    args.push(...(options.args ?? []));
    child = spawn('redis-server', [...args, '--dir', dir, '--logfile', join(dir, 'redis.log')], {
      stdio: 'ignore',
    });
    child.once('error', () => {});
    await waitForPort(port, 20_000, 'redis-server');
  };
  const kill = async (hard = false): Promise<void> => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const gone = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGCONT'); // a paused server must run to die of SIGTERM
    running.kill(hard ? 'SIGKILL' : 'SIGTERM');
    await gone;
  };
  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill,
    restart: launch,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    async stop() {
      await kill(true);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

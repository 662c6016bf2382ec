/**
 * `serve` with in-process plugins: they write to fd 2 directly, so their lines would come out raw, neither masked
 * nor in serve's format. Before they load, fd 2 is pointed at a pipe read by a relay process (`stderr-relay.ts`)
 * that writes each line to the real stderr as serve's log writes an isolated host's stderr (a JSON log line with
 * the plugin's name, or in text a line tagged `[plugin NAME]` with its control characters escaped), masked; serve's
 * own lines keep going straight to the real stderr.
 *
 * Why a process and not a reader in this one: a reader on Node's event loop could not drain the pipe while the
 * loop is busy (a plugin writing more than the pipe holds would then block, and a synchronous write to fd 2 from
 * this thread would deadlock), and whatever a plugin wrote just before it crashed the process (the reason it
 * did) would die unread with it. A relay that ends early (killed) is replaced.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, writeSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAddon } from '@entropic-mcp/loader/addon';
import type { ServeLog } from './log.js';

const RELAY = fileURLToPath(new URL('./stderr-relay.js', import.meta.url));
/** How long start-up waits for the relay to have the secrets before going on without it. */
const READY_MS = 10_000;
/** Relays started again after one ended early, before serve gives up and writes the plugins' lines raw. */
const MAX_RESTARTS = 5;

/** Writes all of `line` to `fd`, waiting out a full pipe. */
function writeAll(fd: number, line: string): void {
  const data = Buffer.from(line);
  let offset = 0;
  while (offset < data.length) {
    try {
      offset += writeSync(fd, data, offset);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
}

/** Resolves once the relay has every secret known so far (false when it did not answer in time or ended). */
function synced(relay: ChildProcess): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), READY_MS);
    relay.once('exit', () => resolve(false));
    relay.on('message', (message: { synced?: unknown }) => {
      if (message.synced !== true) return;
      clearTimeout(timer);
      resolve(true);
    });
    relay.send({ sync: true });
  });
}

/**
 * Routes what the in-process plugins at `paths` write to fd 2 through the relay; does nothing without the addon
 * (the plugins' load then says why) or when the relay cannot start (their lines then stay raw, as before).
 */
export async function relayPluginStderr(log: ServeLog, paths: readonly string[]): Promise<void> {
  let addon: ReturnType<typeof loadAddon>;
  try {
    addon = loadAddon(paths[0] as string);
  } catch {
    return;
  }
  const { pipe, moveStderr } = addon;
  if (pipe === undefined || moveStderr === undefined) return;
  const label = [...new Set(paths.map((p) => basename(p)))].join(', ');
  /** A copy of the real stderr, once fd 2 points at a relay. */
  let stderr: number | undefined;
  let restarts = 0;

  const start = async (): Promise<boolean> => {
    const ends = pipe();
    const out = stderr ?? 2;
    const relay = spawn(process.execPath, [RELAY, label, log.format], {
      stdio: [ends.read, out, out, 'ipc'],
    });
    closeSync(ends.read);
    relay.on('error', () => {});
    log.watchSecrets((secret) => {
      if (relay.connected) relay.send({ secret });
    });
    if (!(await synced(relay))) {
      closeSync(ends.write);
      relay.kill('SIGKILL');
      return false;
    }
    // Serve registers every secret before any plugin loads (start.ts): the relay has them all, and the channel,
    // one more socket held open for the life of serve, is closed.
    relay.disconnect();
    const was = moveStderr(ends.write);
    closeSync(ends.write);
    if (stderr === undefined) {
      const real = was;
      stderr = real;
      log.redirect((line) => writeAll(real, line));
    } else closeSync(was);
    relay.once('exit', () => void ended());
    relay.unref();
    return true;
  };

  // The relay ends only when serve does, unless something killed it: then another takes its place (what the plugins
  // wrote in between is lost); after MAX_RESTARTS, fd 2 goes back to the real stderr and their lines come out raw.
  const ended = async (): Promise<void> => {
    if (restarts++ < MAX_RESTARTS && (await start())) {
      log.log('warn', `the relay of in-process plugins' stderr ended; a new one took its place`);
      return;
    }
    const real = stderr as number;
    closeSync(moveStderr(real));
    closeSync(real);
    log.redirect((line) => writeAll(2, line));
    log.log(
      'warn',
      `the relay of in-process plugins' stderr keeps ending; their lines are written as they are`,
    );
  };

  await start();
}

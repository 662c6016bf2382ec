/**
 * Shared pieces of the sandbox suites: the hostile fixture plugins (test/fixtures/sandbox/hostile.c, plain API and
 * plugin context), the other host builds, a folder of files to read and write, and listening TCP ports.
 */
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import type { Plugin } from '../../src/index.js';
import { fixture, fixturesDir } from './fixtures.js';
import { LOADER_ROOT, tempDir } from './serve-helpers.js';

/** The hostile plugin, by plugin API. */
export const HOSTILE = {
  plain: () => fixture('sandbox-hostile'),
  context: () => fixture('sandbox-hostile-context'),
} as const;

/** The host built with libseccomp writing its filter (test/fixtures/Makefile). */
export const LIBSECCOMP_HOST = join(fixturesDir, 'entropic_plugin_host_libseccomp');
/** The package's host, run as the user nobody (test/fixtures/hosts/as-nobody.sh). */
export const NOBODY_HOST = join(LOADER_ROOT, 'test', 'fixtures', 'hosts', 'as-nobody.sh');

export const NOBODY = 65534;

/** A folder with a secret outside the sandbox, a readable folder, a writable one and one that stays read-only. */
export interface Arena {
  readonly root: string;
  /** Readable by its owner only (0600): root's DAC lets root read it, only the sandbox can refuse. */
  readonly secret: string;
  /** A folder for `read`, holding `file` (also 0600). */
  readonly data: string;
  readonly file: string;
  /** A folder for `write`. */
  readonly out: string;
  remove(): void;
}

/** `owner`: the user the files belong to (the host's user, so its own files are readable to it). */
export function makeArena(owner = 0): Arena {
  const root = tempDir('sandbox');
  chmodSync(root, 0o755);
  const secret = join(root, 'secret.txt');
  const data = join(root, 'data');
  const out = join(root, 'out');
  const file = join(data, 'public.txt');
  mkdirSync(data);
  mkdirSync(out);
  writeFileSync(secret, 'the secret\n', { mode: 0o600 });
  writeFileSync(file, 'the public text\n', { mode: 0o600 });
  for (const path of [secret, data, out, file]) chownSync(path, owner, owner);
  return { root, secret, data, file, out, remove: () => rmSync(root, { recursive: true, force: true }) };
}

export interface Port {
  readonly port: number;
  close(): Promise<void>;
}

/** A TCP listener on 127.0.0.1 that accepts and closes every connection. */
export async function listening(): Promise<Port> {
  const server: Server = createServer((socket) => socket.destroy());
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as { port: number };
  return { port, close: () => new Promise((done) => server.close(() => done())) };
}

/** A TCP port no one listens on now (the system picked it, then it was let go). */
export async function freePort(): Promise<number> {
  const held = await listening();
  await held.close();
  return held.port;
}

/** The hostile plugin's answer to `{what, ...args}`: "ok …", "refused ERRNO …", "made N ERRNO", … */
export async function attempt(p: Plugin, what: string, args: Record<string, unknown> = {}): Promise<string> {
  return (await p.execute('try', { what, ...args })).result;
}

/** What the host wrote to stderr, kept for messages and audit lines. */
export function stderrSink(): { onStderr: (text: string) => void; text(): string } {
  let text = '';
  const onStderr = (t: string): void => {
    text += t;
  };
  return { onStderr, text: () => text };
}

/** A folder the user nobody may write in (for a host that runs as nobody). */
export function openToNobody(path: string): void {
  chownSync(path, NOBODY, NOBODY);
}

/** Whether process `pid` runs (a zombie waiting for its parent does not). */
export function alive(pid: number): boolean {
  if (!existsSync(`/proc/${pid}`)) return false;
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

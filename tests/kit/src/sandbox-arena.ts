/**
 * What the sandbox tests probe with: the hostile fixture plugin (the loader's test/fixtures/sandbox/hostile.c, plain
 * API and plugin context), a folder of files to read and write, and listening TCP ports.
 */
import { chmodSync, chownSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { fixture } from './c-fixtures.js';
import { tempDir } from './temp.js';

/** The hostile plugin, by plugin API. */
export const HOSTILE = {
  plain: () => fixture('sandbox-hostile'),
  context: () => fixture('sandbox-hostile-context'),
} as const;

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

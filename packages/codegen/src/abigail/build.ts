// Compiles the stub library from a set of headers and dumps its ABI with abidw.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { headerPaths, headerPrototypes, headerTypedefs, type Prototype, renderStubSource } from './stub.js';
import { runTool } from './tools.js';

/** abidw flags that keep the dump free of paths and line numbers, so it is stable across checkouts. */
export const ABIDW_FLAGS = [
  '--no-show-locs',
  '--no-corpus-path',
  '--no-comp-dir-path',
  '--type-id-style',
  'hash',
];

/** The stub's file name; the dump records it as the translation unit's path. */
export const STUB_SOURCE = 'stub.c';

export interface StubBuild {
  /** The ABI dump (abixml) of the stub library. */
  abi: string;
  prototypes: Prototype[];
}

/** Runs `fn` with a fresh temporary folder and removes it afterwards. */
export function withTempDir<T>(prefix: string, fn: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A hash of every file under the include folder (names and bytes): equal hashes give equal dumps. */
function headersHash(includeDir: string): string {
  const hash = createHash('sha256');
  const files = readdirSync(includeDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
  for (const file of files)
    hash
      .update(`${relative(includeDir, file)}\0`)
      .update(readFileSync(file))
      .update('\0');
  return hash.digest('hex');
}

/** Dumps already made in this process, by headers hash (the gate dumps the same headers repeatedly). */
const dumps = new Map<string, StubBuild>();

/** Builds `libentropic-abi-stub.so` from the headers under `includeDir` and returns its ABI dump. */
export function dumpHeadersAbi(includeDir: string): StubBuild {
  const key = headersHash(includeDir);
  const known = dumps.get(key);
  if (known) return known;
  const made = buildHeadersAbi(includeDir);
  dumps.set(key, made);
  return made;
}

/** Builds and dumps the stub every time (no cache): what `dumpHeadersAbi` runs once per set of headers. */
export function buildHeadersAbi(includeDir: string): StubBuild {
  return withTempDir('entropic-abi-stub-', (dir) => {
    const prototypes = headerPrototypes(includeDir, dir);
    const lib = join(dir, 'libentropic-abi-stub.so');
    const source = renderStubSource(prototypes, headerPaths(includeDir), headerTypedefs(includeDir));
    writeFileSync(join(dir, STUB_SOURCE), source);
    // Compiled from inside the temporary folder under a relative name, with the folder mapped away,
    // so the dump names the unit `stub.c` and the same headers give the same bytes on every run.
    const cc = runTool(
      'gcc',
      [
        '-std=c2x',
        '-g',
        '-O0',
        '-shared',
        '-fPIC',
        `-fdebug-prefix-map=${dir}=.`,
        `-I${resolve(includeDir)}`,
        STUB_SOURCE,
        '-o',
        lib,
      ],
      { cwd: dir },
    );
    if (cc.status !== 0) throw new Error(`the ABI stub library did not compile:\n${cc.stderr.trim()}`);
    return { abi: dumpBinaryAbi(lib), prototypes };
  });
}

/** The abidw dump of a built shared library. */
export function dumpBinaryAbi(lib: string): string {
  const r = runTool('abidw', [...ABIDW_FLAGS, lib]);
  if (r.status !== 0) throw new Error(`abidw failed on ${lib} (exit ${r.status}):\n${r.stderr.trim()}`);
  return r.stdout;
}

// Compiles the stub library from a set of headers and dumps its ABI with abidw.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { headerPrototypes, type Prototype, renderStubSource } from './stub.js';
import { runTool } from './tools.js';

/** abidw flags that keep the dump free of paths and line numbers, so it is stable across checkouts. */
export const ABIDW_FLAGS = [
  '--no-show-locs',
  '--no-corpus-path',
  '--no-comp-dir-path',
  '--type-id-style',
  'hash',
];

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

/** Builds `libentropic-abi-stub.so` from the headers under `includeDir` and returns its ABI dump. */
export function dumpHeadersAbi(includeDir: string): StubBuild {
  return withTempDir('entropic-abi-stub-', (dir) => {
    const prototypes = headerPrototypes(includeDir, dir);
    const src = join(dir, 'stub.c');
    const lib = join(dir, 'libentropic-abi-stub.so');
    writeFileSync(src, renderStubSource(prototypes));
    const cc = runTool('gcc', [
      '-std=c2x',
      '-g',
      '-O0',
      '-shared',
      '-fPIC',
      `-I${resolve(includeDir)}`,
      src,
      '-o',
      lib,
    ]);
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

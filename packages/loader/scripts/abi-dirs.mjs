#!/usr/bin/env node
// Prints a path binding.gyp needs: `include` (the generated C headers of @entropic-mcp/abi-headers),
// `native` (its private tables header for the loader's C code) or `host-sources` (the host's .c files, with
// the wire's, which the addon compiles too).
// `include-dir` is the same as `include`, so this script can stand in for `entropic-abi include-dir`.
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const what = process.argv[2];
const here = dirname(dirname(new URL(import.meta.url).pathname));

function abiRoot() {
  const require = createRequire(join(here, 'package.json'));
  return dirname(require.resolve('@entropic-mcp/abi-headers/package.json'));
}

if (what === 'include' || what === 'include-dir') console.log(join(abiRoot(), 'include'));
else if (what === 'native') console.log(join(abiRoot(), 'native'));
else if (what === 'host-sources') {
  const sources = (dir) =>
    readdirSync(join(here, 'native', dir))
      .filter((f) => f.endsWith('.c'))
      .sort()
      .map((f) => `native/${dir}/${f}`);
  console.log([...sources('host'), ...sources('wire')].join(' '));
} else {
  console.error('usage: abi-dirs.mjs include|native|host-sources');
  process.exit(2);
}

#!/usr/bin/env node
// entropic-abi-headers: prints where this package's files are, for plugin builds that need only the headers
// (`-I$(entropic-abi-headers --include-dir)`), without installing the code generator.
import { readFileSync } from 'node:fs';
import { includeDir, lockPath, nativeDir } from './index.js';

const USAGE = `usage: entropic-abi-headers --include-dir | --native-dir | --lock | --version | --help

  --include-dir  the folder to pass as -I to a C or C++ compiler (holds entropic/interfaces/i_mcp_server.h)
  --native-dir   the folder of entropic_abi_tables.h (the loader's private tables)
  --lock         the path of abi.lock.json, the ABI lock
  --version      the package version
  --help         this text

Makefile: CFLAGS += -I$(shell npx --no-install entropic-abi-headers --include-dir)`;

function version(): string {
  const manifest = new URL('../package.json', import.meta.url);
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

const answers: Record<string, () => string> = {
  '--include-dir': () => includeDir,
  '--native-dir': () => nativeDir,
  '--lock': () => lockPath,
  '--version': version,
  '-v': version,
};

const args = process.argv.slice(2);
const [flag] = args;
if (flag === '--help' || flag === '-h') {
  console.log(USAGE);
} else if (args.length === 0) {
  console.error(USAGE);
  process.exitCode = 2;
} else if (args.length !== 1 || flag === undefined || answers[flag] === undefined) {
  // A usage error is one line saying what was wrong, then where the options are explained.
  const known = args.every((arg) => answers[arg] !== undefined);
  const what = known ? 'one option at a time' : 'unknown arguments';
  console.error(
    `entropic-abi-headers: ${what}: ${args.join(' ')}\n` +
      'run `entropic-abi-headers --help` for its options',
  );
  process.exitCode = 2;
} else {
  console.log(answers[flag]());
}

#!/usr/bin/env node
// Builds the native parts with node-gyp: the plugin host executable and the in-process addon. The gyp file is kept
// as native/binding.gyp (a binding.gyp at the package root makes npm and pnpm run `node-gyp rebuild` on install)
// and copied to the root only while node-gyp runs.
// The Node headers come from the running Node's own installation (--nodedir), so nothing is downloaded.
// Extra arguments go to node-gyp (for example `-- --debug`). A release build with no extra arguments notes what it
// was made from in build/Release/native-inputs.txt, so that prebuild.mjs can package it instead of compiling again.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILT_FROM, nativeInputs } from './native-inputs.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
// node-gyp is a dev dependency; installed from a registry (`entropic-mcp build-native`) the package uses the one
// NODE_GYP names, the copy npm runs scripts with (npm_config_node_gyp), or the one bundled with the npm beside
// this Node.
function findNodeGyp() {
  if (process.env.NODE_GYP) return process.env.NODE_GYP;
  try {
    return require.resolve('node-gyp/bin/node-gyp.js');
  } catch {
    if (process.env.npm_config_node_gyp) return process.env.npm_config_node_gyp;
    const bundled = resolve(
      process.execPath,
      '../../lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js',
    );
    if (existsSync(bundled)) return bundled;
    console.error(
      'build-native: node-gyp was not found (not beside npm, no NODE_GYP); install it with `npm i -g node-gyp` ' +
        'and set NODE_GYP to its bin/node-gyp.js',
    );
    process.exit(1);
  }
}
const nodeGyp = findNodeGyp();
const nodedir = resolve(process.execPath, '..', '..');
const args = [
  nodeGyp,
  'rebuild',
  `--nodedir=${nodedir}`,
  '--jobs=max',
  '--loglevel=warn',
  ...process.argv.slice(2),
];

const gyp = join(root, 'binding.gyp');
copyFileSync(join(root, 'native', 'binding.gyp'), gyp);
let inputs;
try {
  inputs = process.argv.length > 2 ? undefined : nativeInputs();
} catch {
  // nothing noted: prebuild.mjs then compiles for itself
}
rmSync(BUILT_FROM, { force: true });
let run;
try {
  run = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
} finally {
  rmSync(gyp, { force: true });
}
if (run.error) throw run.error;
if (run.status === 0 && inputs !== undefined) writeFileSync(BUILT_FROM, `${inputs}\n`);
process.exit(run.status ?? 1);

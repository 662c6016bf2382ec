#!/usr/bin/env node
// Builds the native parts with node-gyp (binding.gyp): the plugin host executable and the in-process addon.
// The Node headers come from the running Node's own installation (--nodedir), so nothing is downloaded.
// Extra arguments go to node-gyp (for example `-- --debug`).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
// node-gyp is a dev dependency; installed from a registry the package uses the copy npm runs scripts with
// (npm_config_node_gyp), or the one bundled with the npm beside this Node.
function findNodeGyp() {
  try {
    return require.resolve('node-gyp/bin/node-gyp.js');
  } catch (error) {
    if (process.env.npm_config_node_gyp) return process.env.npm_config_node_gyp;
    const bundled = resolve(
      process.execPath,
      '../../lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js',
    );
    if (existsSync(bundled)) return bundled;
    throw error;
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

const run = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
if (run.error) throw run.error;
process.exit(run.status ?? 1);

#!/usr/bin/env node
// The package's install step. It does nothing when this platform already has both native parts (the in-process
// addon and the plugin host executable), prebuilt in prebuilds/<platform>-<arch>/ or compiled in build/Release;
// otherwise it compiles them with node-gyp (scripts/build-native.mjs). `npm_config_build_from_source=true`
// forces the compile. In the source repository a missing build is left to `pnpm build`, so `pnpm install`
// stays fast. A failed compile is reported but does not fail the install: loading a plugin then says which
// binary is missing.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const prebuilds = join(root, 'prebuilds', `${process.platform}-${process.arch}`);
const release = join(root, 'build', 'Release');

function has(dir, match) {
  try {
    return readdirSync(dir).some(match);
  } catch {
    return false;
  }
}

const addon = (name) => name.endsWith('.node');
const host = (name) => name === 'entropic_plugin_host';
const prebuilt = has(prebuilds, addon) && has(prebuilds, host);
const built = has(release, addon) && has(release, host);
const fromSource = process.env.npm_config_build_from_source === 'true';
// Installed as a dependency, the package sits in a node_modules folder; in the repository it does not.
const inRepository = !root.split(sep).includes('node_modules') && existsSync(join(root, '..', '..', '.git'));

if (prebuilt) {
  // Some packers drop the executable bit; the host must be runnable.
  chmodSync(join(prebuilds, 'entropic_plugin_host'), 0o755);
}
if (!fromSource && (prebuilt || built || inRepository)) process.exit(0);

const run = spawnSync(process.execPath, [join(root, 'scripts', 'build-native.mjs')], {
  cwd: root,
  stdio: 'inherit',
});
if (run.status !== 0) {
  console.error(
    '@entropic-mcp/loader: compiling the native parts failed (a C/C++ compiler, make and python3 are needed); ' +
      'isolation "process" and "none" will report the missing binary until it is built',
  );
}

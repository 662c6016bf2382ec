#!/usr/bin/env node
// The package's install step. It does nothing when this platform already has both native parts (the in-process
// addon and the plugin host executable), prebuilt in prebuilds/<platform>-<arch>/ or compiled in build/Release;
// otherwise it compiles them with node-gyp (scripts/build-native.mjs) and says so while it does.
// `npm_config_build_from_source=true` forces the compile. In the source repository a missing build is left to
// `pnpm build`, so `pnpm install` stays fast. A failed compile is reported but does not fail the install:
// loading a plugin then says which binary is missing.
// Where the parts are looked for is decided once, in dist/native-files.js (src/native-files.ts).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const fromSource = process.env.npm_config_build_from_source === 'true';
// Installed as a dependency, the package sits in a node_modules folder; in the repository it does not.
const inRepository = !root.split(sep).includes('node_modules') && existsSync(join(root, '..', '..', '.git'));
if (inRepository && !fromSource) process.exit(0);

const files = await import(pathToFileURL(join(root, 'dist', 'native-files.js')).href);
const missing = [];
try {
  files.resolveAddon();
} catch {
  missing.push('in-process addon');
}
if (!files.hostCandidates().some((path) => existsSync(path))) missing.push('plugin host');
if (!fromSource && missing.length === 0) process.exit(0);

const why = fromSource
  ? 'npm_config_build_from_source is set'
  : `no prebuilt ${missing.join(' or ')} for ${files.platformLabel()}`;
const started = Date.now();
console.error(
  `${files.PACKAGE_NAME}: ${why}; compiling both with node-gyp (C and C++, about 15-30 s on 2 cores)…`,
);
const run = spawnSync(process.execPath, [join(root, 'scripts', 'build-native.mjs')], {
  cwd: root,
  stdio: 'inherit',
});
const seconds = ((Date.now() - started) / 1000).toFixed(1);
if (run.status === 0) {
  console.error(`${files.PACKAGE_NAME}: compiled the native parts into build/Release in ${seconds} s`);
} else {
  console.error(
    `${files.PACKAGE_NAME}: compiling the native parts failed after ${seconds} s (a C/C++ compiler, make and ` +
      'python3 are needed); plugins that need the missing part will say so when loaded',
  );
}

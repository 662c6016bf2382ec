#!/usr/bin/env node
// Makes the prebuilt binaries for this platform in prebuilds/<platform>-<arch>/, which the published package
// ships: the in-process addon through prebuildify (N-API, stripped, tagged with the libc), then the plugin host
// executable, which prebuildify does not copy. Node's headers come from the running Node (nodedir), so nothing
// is downloaded. prebuildify moves the addon out of build/Release; the host stays there too.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const nodedir = resolve(process.execPath, '..', '..');
const target = join(root, 'prebuilds', `${process.platform}-${process.arch}`);

function run(command, args, env = process.env) {
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    console.error(`prebuild: ${command} ${args.join(' ')} exited with ${result.status}`);
    process.exit(result.status ?? 1);
  }
}

const prebuildify = join(dirname(require.resolve('prebuildify/package.json')), 'bin.js');
run(process.execPath, [prebuildify, '--napi', '--strip', '--tag-libc'], {
  ...process.env,
  npm_config_nodedir: nodedir,
});

const host = join(root, 'build', 'Release', 'entropic_plugin_host');
if (!existsSync(host)) {
  console.error(`prebuild: ${host} is missing after the build`);
  process.exit(1);
}
mkdirSync(target, { recursive: true });
const copy = join(target, 'entropic_plugin_host');
copyFileSync(host, copy);
chmodSync(copy, 0o755);
run('strip', ['--strip-all', copy]);
console.log(`prebuild: wrote the addon and entropic_plugin_host to ${target}`);

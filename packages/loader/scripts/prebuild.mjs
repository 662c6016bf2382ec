#!/usr/bin/env node
// Makes the prebuilt binaries the published package ships, in prebuilds/<platform>-<arch>/ (run by `prepack`):
//   @entropic-mcp+loader.<libc>.node   the in-process addon (prebuildify --napi --strip --tag-libc)
//   entropic_plugin_host.<libc>        the plugin host executable (prebuildify copies only the addon)
//   entropic_plugin_host.musl          on Linux, the host again, linked against musl with musl-gcc when it is
//                                      installed (Debian: musl-tools); the C++ addon has no musl toolchain here
// The build runs in a scratch copy of the sources, so build/Release (which tests and local runs use) is left
// alone. Node's headers come from the running Node (nodedir), so nothing is downloaded.
// ENTROPIC_PREBUILD_MUSL=require fails when musl-gcc is missing; =skip does not try.
// When .prebuild-stamp.json says the prebuilds were made from the same inputs (a hash of the native sources, the
// ABI headers, these scripts and the toolchain choices) and every file is there, nothing is compiled again;
// ENTROPIC_PREBUILD_FORCE=1 compiles anyway. On Linux, when build/Release holds a release build of the same
// sources (build-native.mjs notes their hash there: native-inputs.mjs), its addon and host are copied and stripped
// instead of compiled a second time (node-gyp with the same binding.gyp, flags and Node headers).
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { BUILT_FROM, nativeInputs, root, thisLibc } from './native-inputs.mjs';

const require = createRequire(import.meta.url);
const nodedir = resolve(process.execPath, '..', '..');
const platformDir = `${process.platform}-${process.arch}`;
const HOST = 'entropic_plugin_host';
const started = Date.now();

function run(command, args, cwd, env = process.env) {
  const result = spawnSync(command, args, { cwd, env, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
}

function has(command) {
  return spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;
}

function abiDir(what) {
  const out = spawnSync(process.execPath, [join(root, 'scripts', 'abi-dirs.mjs'), what], {
    encoding: 'utf8',
  });
  if (out.status !== 0) throw new Error(`abi-dirs.mjs ${what} failed: ${out.stderr}`);
  return out.stdout.trim();
}

function muslHost(into) {
  const mode = process.env.ENTROPIC_PREBUILD_MUSL ?? 'auto';
  if (process.platform !== 'linux' || mode === 'skip' || thisLibc() === 'musl') return;
  if (!has('musl-gcc')) {
    const message = 'musl-gcc is not installed (Debian: apt-get install musl-tools)';
    if (mode === 'require') throw new Error(message);
    console.error(`prebuild: WARNING ${message}; the package will ship no musl host`);
    return;
  }
  const sources = abiDir('host-sources')
    .split(' ')
    .map((f) => join(root, f));
  const out = join(into, `${HOST}.musl`);
  console.error('prebuild: compiling the plugin host against musl (musl-gcc)');
  run(
    'musl-gcc',
    [
      ...['-std=gnu11', '-O2', '-pthread', '-fvisibility=hidden', '-Wall', '-Wextra'],
      `-I${abiDir('include')}`,
      `-I${abiDir('native')}`,
      `-I${join(root, 'native', 'wire')}`,
      ...sources,
      ...['-ldl', '-lpthread', '-o', out],
    ],
    root,
  );
  run('strip', ['--strip-all', out], root);
}

function muslWanted() {
  const mode = process.env.ENTROPIC_PREBUILD_MUSL ?? 'auto';
  return process.platform === 'linux' && mode !== 'skip' && thisLibc() !== 'musl' && has('musl-gcc');
}

/** What the prebuilds are made from; equal hashes mean equal inputs. */
function inputsHash() {
  return nativeInputs([join(root, 'scripts', 'prebuild.mjs')], `musl=${muslWanted()}`);
}

/** The addon and host of build/Release, when build-native.mjs built them from the sources here (Linux only). */
function releaseBuild() {
  if (thisLibc() === undefined || !existsSync(BUILT_FROM)) return undefined;
  if (readFileSync(BUILT_FROM, 'utf8').trim() !== nativeInputs()) return undefined;
  const release = dirname(BUILT_FROM);
  const addon = join(release, 'entropic_loader.node');
  const host = join(release, HOST);
  return existsSync(addon) && existsSync(host) ? { addon, host } : undefined;
}

const stampFile = join(root, '.prebuild-stamp.json');
const target = join(root, 'prebuilds', platformDir);

function upToDate(hash) {
  if (process.env.ENTROPIC_PREBUILD_FORCE === '1' || !existsSync(stampFile) || !existsSync(target))
    return false;
  const stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
  if (stamp[platformDir]?.inputs !== hash) return false;
  const present = readdirSync(target);
  return (stamp[platformDir].files ?? []).every((f) => present.includes(f)) && present.length > 0;
}

const hash = inputsHash();
if (upToDate(hash)) {
  console.error(
    `prebuild: ${target} is up to date with its inputs (${hash.slice(0, 12)}); nothing to compile`,
  );
  process.exit(0);
}

const scratch = mkdtempSync(join(root, '.prebuild-'));
try {
  for (const part of ['package.json', 'native', 'scripts/abi-dirs.mjs']) {
    cpSync(join(root, part), join(scratch, part), { recursive: true });
  }
  copyFileSync(join(root, 'native', 'binding.gyp'), join(scratch, 'binding.gyp'));
  const made = join(scratch, 'prebuilds', platformDir);
  const libc = thisLibc();
  const built = releaseBuild();
  let host = join(scratch, 'build', 'Release', HOST);
  if (built !== undefined) {
    // prebuildify's name for the addon: the package name with its slash as `+`, then the libc tag.
    console.error(
      `prebuild: packaging the addon and the plugin host of build/Release (built from these sources)`,
    );
    const name = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).name.replace('/', '+');
    mkdirSync(made, { recursive: true });
    const addonCopy = join(made, `${name}.${libc}.node`);
    copyFileSync(built.addon, addonCopy);
    run('strip', ['--strip-all', addonCopy], scratch);
    host = built.host;
  } else {
    console.error(
      `prebuild: compiling the addon and the plugin host for ${platformDir} (node-gyp, about 15 s)`,
    );
    const prebuildify = join(dirname(require.resolve('prebuildify/package.json')), 'bin.js');
    run(process.execPath, [prebuildify, '--napi', '--strip', '--tag-libc'], scratch, {
      ...process.env,
      npm_config_nodedir: nodedir,
    });
  }
  if (!existsSync(host)) throw new Error(`${host} is missing after the build`);
  const hostCopy = join(made, libc === undefined ? HOST : `${HOST}.${libc}`);
  copyFileSync(host, hostCopy);
  run('strip', ['--strip-all', hostCopy], scratch);
  muslHost(made);
  for (const file of readdirSync(made)) chmodSync(join(made, file), 0o755);
  // Swap the folder in whole, so a reader never sees half of it.
  mkdirSync(dirname(target), { recursive: true });
  const old = join(scratch, 'old');
  if (existsSync(target)) renameSync(target, old);
  renameSync(made, target);
  const stamp = existsSync(stampFile) ? JSON.parse(readFileSync(stampFile, 'utf8')) : {};
  stamp[platformDir] = { inputs: hash, files: readdirSync(target).sort() };
  writeFileSync(stampFile, `${JSON.stringify(stamp, null, 2)}\n`);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.error(`prebuild: ${target}: ${readdirSync(target).sort().join(', ')} (${seconds} s)`);
} catch (error) {
  console.error(`prebuild: ${error.message}`);
  process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

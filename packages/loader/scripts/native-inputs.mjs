// What the loader's native build is made from, as one hash: its C and C++ sources (native/), the ABI headers and
// tables it includes, node-addon-api's version and the choices that change the compiled code (platform, libc,
// ENTROPIC_SECCOMP). build-native.mjs writes it beside build/Release; prebuild.mjs reads it there to package that
// build instead of compiling the same sources again.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));

/** The libc node-gyp-build matches on Linux: glibc unless this is Alpine or LIBC says otherwise. */
export function thisLibc() {
  if (process.platform !== 'linux') return undefined;
  return process.env.LIBC || (existsSync('/etc/alpine-release') ? 'musl' : 'glibc');
}

function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** The hash of the native build's inputs, with `files` and `choices` (a string) of the caller's own added. */
export function nativeInputs(files = [], choices = '') {
  const abi = dirname(require.resolve('@entropic-mcp/abi-headers/package.json'));
  const hash = createHash('sha256');
  const all = [
    join(root, 'scripts', 'abi-dirs.mjs'),
    join(root, 'scripts', 'native-inputs.mjs'),
    ...filesUnder(join(root, 'native')),
    ...filesUnder(join(abi, 'include')),
    ...filesUnder(join(abi, 'native')),
    ...files,
  ].sort();
  for (const file of all) hash.update(`${relative(root, file)}\0`).update(readFileSync(file));
  const addonApi = JSON.parse(readFileSync(require.resolve('node-addon-api/package.json'), 'utf8')).version;
  const platform = `${process.platform}-${process.arch}`;
  hash.update(
    `${platform} ${thisLibc()} node-addon-api=${addonApi} seccomp=${process.env.ENTROPIC_SECCOMP ?? ''}`,
  );
  hash.update(choices);
  return hash.digest('hex');
}

/** Where build-native.mjs notes the inputs of the build in build/Release. */
export const BUILT_FROM = join(root, 'build', 'Release', 'native-inputs.txt');

/**
 * `entropic-mcp build-native`: compiles the native parts (the plugin host and the in-process addon) into this
 * installation's `build/Release`, for a platform no prebuild matches. The package has no install script, so
 * installing it never compiles and never asks to be allowed to; this command is the one explicit way to compile.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  hostCandidates,
  PACKAGE_NAME,
  packageRoot,
  platformLabel,
  resolveAddon,
} from '@entropic-mcp/loader/addon';
import { parseCommandArgs, report, UsageError } from '../cli-kit/shared.js';

const USAGE = 'usage: entropic-mcp build-native [-- NODE_GYP_ARGS...]\n';

const HELP = `${USAGE}
Compiles the plugin host executable and the in-process addon with node-gyp into ${join(packageRoot, 'build', 'Release')}
(about 15-60 s), for a platform without a prebuilt binary. A local build is used before any prebuild.
Needs a C/C++ compiler, make and python3; node-gyp is the one beside npm (or NODE_GYP names one).
Arguments after -- go to node-gyp (for example -- --debug).
`;

/** Which native parts this installation can use now: a prebuild or a local build. */
function present(): { addon: boolean; host: boolean } {
  let addon = true;
  try {
    resolveAddon();
  } catch {
    addon = false;
  }
  return { addon, host: hostCandidates().some((path) => existsSync(path)) };
}

export async function run(argv: string[]): Promise<number> {
  let rest: string[];
  try {
    const { values, positionals } = parseCommandArgs(argv, { help: { type: 'boolean', short: 'h' } });
    if (values.help) {
      process.stdout.write(HELP);
      return 0;
    }
    const dashes = argv.indexOf('--');
    rest = dashes === -1 ? [] : argv.slice(dashes + 1);
    if (positionals.length > rest.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  } catch (error) {
    return report('build-native', error);
  }
  const started = Date.now();
  process.stderr.write(
    `${PACKAGE_NAME}: compiling the plugin host and the in-process addon for ${platformLabel()} with node-gyp ` +
      `into ${join(packageRoot, 'build', 'Release')}…\n`,
  );
  const build = spawnSync(process.execPath, [join(packageRoot, 'scripts', 'build-native.mjs'), ...rest], {
    cwd: packageRoot,
    stdio: 'inherit',
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const parts = present();
  if (build.status !== 0 || !parts.addon || !parts.host) {
    process.stderr.write(
      `${PACKAGE_NAME}: compiling failed after ${seconds} s (${build.error?.message ?? `node-gyp exited with ${build.status ?? build.signal}`}); ` +
        'it needs a C/C++ compiler, make and python3, and write access to the package folder\n',
    );
    return 1;
  }
  process.stderr.write(
    `${PACKAGE_NAME}: compiled both parts in ${seconds} s; plugins load from this build now\n`,
  );
  return 0;
}

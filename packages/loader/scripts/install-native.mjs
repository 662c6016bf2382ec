#!/usr/bin/env node
// The package's install step: use the prebuilt binaries for this platform when they are there, else compile
// with node-gyp (scripts/build-native.mjs). A failed compile is reported but does not fail the install: the
// loader then says which binary is missing when a plugin is loaded, and `pnpm build` retries.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const prebuilt = join(root, 'prebuilds', `${process.platform}-${process.arch}`, 'entropic_plugin_host');

if (existsSync(prebuilt)) process.exit(0);
const run = spawnSync(process.execPath, [join(root, 'scripts', 'build-native.mjs')], {
  cwd: root,
  stdio: 'inherit',
});
if (run.status !== 0) {
  console.error(
    '@entropic-mcp/loader: compiling the native parts failed; run `pnpm --filter @entropic-mcp/loader build`',
  );
}

#!/usr/bin/env node
// Prints a path binding.gyp needs: `include` (the generated C headers of @entropic-mcp/abi-headers),
// `native` (its private tables header for the loader's C code) or `host-sources` (the host's .c files, with
// the wire's, which the addon compiles too); or how the host's sandbox writes its seccomp filter:
// `seccomp-defines` and `seccomp-libs` print `ENTROPIC_HAVE_LIBSECCOMP` and `-lseccomp` when the host is to
// write its filter with libseccomp, and nothing when it uses its built-in BPF writer: the built-in writer on
// x86-64 and arm64 (it loads the filter in 0.3 ms where libseccomp 2.5.4 takes 1.2 to 14 ms, and needs no
// library), libseccomp elsewhere when its headers are installed (Debian: libseccomp-dev). ENTROPIC_SECCOMP=bpf
// or =libseccomp decides instead (=libseccomp fails when libseccomp is not installed).
// `include-dir` is the same as `include`, so this script can stand in for `entropic-abi include-dir`.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const what = process.argv[2];
const here = dirname(dirname(new URL(import.meta.url).pathname));

function abiRoot() {
  const require = createRequire(join(here, 'package.json'));
  return dirname(require.resolve('@entropic-mcp/abi-headers/package.json'));
}

if (what === 'include' || what === 'include-dir') console.log(join(abiRoot(), 'include'));
else if (what === 'native') console.log(join(abiRoot(), 'native'));
else if (what === 'host-sources') {
  const sources = (dir) =>
    readdirSync(join(here, 'native', dir))
      .filter((f) => f.endsWith('.c'))
      .sort()
      .map((f) => `native/${dir}/${f}`);
  console.log([...sources('host'), ...sources('wire')].join(' '));
} else if (what === 'seccomp-defines' || what === 'seccomp-libs') {
  if (useLibseccomp()) console.log(what === 'seccomp-defines' ? 'ENTROPIC_HAVE_LIBSECCOMP' : '-lseccomp');
} else {
  console.error('usage: abi-dirs.mjs include|native|host-sources|seccomp-defines|seccomp-libs');
  process.exit(2);
}

/** Whether a test program using libseccomp compiles and links here (or what ENTROPIC_SECCOMP says). */
function useLibseccomp() {
  const choice = process.env.ENTROPIC_SECCOMP ?? 'auto';
  if (choice === 'bpf') return false;
  if (choice === 'auto' && (process.arch === 'x64' || process.arch === 'arm64')) return false;
  const probe = spawnSync(process.env.CC || 'cc', ['-x', 'c', '-', '-lseccomp', '-o', '/dev/null'], {
    input: '#include <seccomp.h>\nint main(void) { return seccomp_init(SCMP_ACT_ALLOW) == 0; }\n',
  });
  const found = probe.status === 0;
  if (!found && choice === 'libseccomp') {
    console.error(
      'ENTROPIC_SECCOMP=libseccomp, but <seccomp.h> and -lseccomp were not found (Debian: libseccomp-dev)',
    );
    process.exit(1);
  }
  return found;
}

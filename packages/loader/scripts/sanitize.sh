#!/usr/bin/env bash
# Builds the plugin host and the in-process addon with AddressSanitizer and UndefinedBehaviorSanitizer,
# then runs the loader's plugin suites on the test fixtures against those builds:
#   - the host: the isolated plugin suite, the isolated plugin-context cases, the serve fault matrix and the
#     late callbacks of a plugin thread through serve (ENTROPIC_PLUGIN_HOST points at it);
#   - the addon: the in-process plugin suite, plugin-context cases and those late callbacks in a Node with
#     libasan preloaded (ENTROPIC_LOADER_ADDON).
# Any sanitizer report fails the run (reports go to files, since the host's stderr belongs to the loader).
# Usage: scripts/sanitize.sh [host|addon|all]   (default all). Exit 0 clean, 1 reports or failures,
# 77 when the toolchain cannot build sanitized code (no libasan). Needs `pnpm --filter ... build` first.
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
CC="${CC:-gcc}"
CXX="${CXX:-g++}"
out="$(mktemp -d "${TMPDIR:-/tmp}/entropic-sanitize.XXXXXX")"
logs="$out/logs"
mkdir -p "$logs"
trap 'rm -rf "$out"' EXIT

SAN=(-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g1 -O1)
include="$(node scripts/abi-dirs.mjs include)"
native="$(node scripts/abi-dirs.mjs native)"

if ! echo 'int main(void){return 0;}' | "$CC" "${SAN[@]}" -x c - -o "$out/probe" 2>/dev/null; then
  echo "sanitize: $CC cannot build with -fsanitize=address,undefined; skipped" >&2
  exit 77
fi

# Sanitizer settings for the processes under test. Fatal signals the fixtures raise on purpose are left to
# the loader (it reports them by name), so ASan must not turn them into reports of its own.
asan_common="handle_segv=0:handle_abort=0:handle_sigbus=0:handle_sigfpe=0:log_path=$logs/asan:exitcode=86"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$logs/ubsan"
status=0

# The wire's C, compiled once as C (as binding.gyp compiles it) and linked into both builds. -g1: line tables,
# all a report's stack needs, at a fraction of the compile time of full debug information.
mkdir -p "$out/wire"
for src in native/wire/*.c; do
  "$CC" -std=gnu11 -fPIC -pthread -Wall -Wextra "${SAN[@]}" -I"$include" -I"$native" -Inative/wire \
    -c "$src" -o "$out/wire/$(basename "$src" .c).o"
done

if [ "$what" = all ] || [ "$what" = host ]; then
  echo "sanitize: building entropic_plugin_host with ${SAN[*]}"
  # shellcheck disable=SC2046
  "$CC" -std=gnu11 -pthread -Wall -Wextra "${SAN[@]}" -I"$include" -I"$native" -Inative/wire \
    $(node scripts/abi-dirs.mjs host-sources | tr ' ' '\n' | grep -v '^native/wire/') "$out"/wire/*.o \
    -o "$out/entropic_plugin_host" -ldl -lpthread
  # Canary: a plugin with a double free must leave a report, or reports would go unseen.
  "$CC" -std=gnu11 -fPIC -shared -g -I"$include" test/fixtures/sanitize/canary.c -o "$out/canary.so"
  ASAN_OPTIONS="$asan_common" ENTROPIC_PLUGIN_HOST="$out/entropic_plugin_host" node --input-type=module -e "
    const { loadPlugin } = await import('./dist/index.js');
    const p = await loadPlugin('$out/canary.so');
    await p.execute('double_free', {}).then(() => process.exit(3), () => {});
    await p.close().catch(() => {});" || status=1
  if grep -qs 'attempting double-free' "$logs"/asan.*; then
    echo "sanitize: canary double free reported, as it must be"
    rm -f "$logs"/asan.*
  else
    echo "sanitize: the canary double free left no report" >&2
    status=1
  fi
  echo "sanitize: host: isolated plugin suite, plugin-context cases, serve fault matrix and late callbacks of a"
  echo "sanitize: plugin thread through serve, on the sanitized host"
  export SANITIZE_HOST="$out/entropic_plugin_host"
  export SANITIZE_HOST_ASAN_OPTIONS="$asan_common:detect_leaks=1"
fi

if [ "$what" = all ] || [ "$what" = addon ]; then
  echo "sanitize: building entropic_loader.node with ${SAN[*]}"
  addon_api="$(node -p "require('node-addon-api').include_dir")"
  node_include="$(node -p "require('path').resolve(process.execPath, '../../include/node')")"
  [ -f "$node_include/node_api.h" ] || node_include=/usr/include/node
  "$CXX" -std=c++17 -shared -fPIC -fexceptions -fvisibility=hidden -Wall -Wextra "${SAN[@]}" \
    -DNAPI_VERSION=8 -DNAPI_CPP_EXCEPTIONS -DNODE_ADDON_API_DISABLE_DEPRECATED \
    -I"$addon_api" -I"$node_include" -I"$include" -I"$native" -Inative/wire \
    native/addon/*.cc "$out"/wire/*.o -o "$out/entropic_loader.node" -ldl -lpthread
  echo "sanitize: addon: in-process plugin suite, plugin-context cases and late callbacks of a plugin thread"
  echo "sanitize: through serve, with the sanitized addon (libasan preloaded into node)"
  # Node itself is not built with ASan: its own leaks and allocator pairs are not ours to judge.
  export SANITIZE_ADDON="$out/entropic_loader.node"
  export SANITIZE_LIBASAN="$("$CXX" -print-file-name=libasan.so)"
  export SANITIZE_ADDON_ASAN_OPTIONS="$asan_common:detect_leaks=0:alloc_dealloc_mismatch=0:verify_asan_link_order=0"
fi

# One vitest run for both builds: the loader's suites and the serve suites that run plugins through
# `entropic-mcp serve` (the environment set here reaches the serve processes they start, and through them the
# loader). test/support/sanitize.vitest.mjs picks each build's files and cases and gives each its environment; its
# global setup compiles the fixtures. The workspace's vitest (hoisted to the repository root), or pnpm's.
runner=(pnpm exec vitest)
[ -x ../../node_modules/.bin/vitest ] && runner=(../../node_modules/.bin/vitest)
SANITIZE_WHAT="$what" "${runner[@]}" run --config test/support/sanitize.vitest.mjs || status=1

# A log counts only when it holds a finding. LeakSanitizer's tracer sometimes logs a bare "Unable to get
# registers from thread N" when a thread is exiting while it stops the world: that is no report.
for f in "$logs"/*; do
  [ -e "$f" ] || continue
  grep -q -E 'ERROR: |runtime error:|SUMMARY: ' "$f" || rm -f "$f"
done
if compgen -G "$logs/*" >/dev/null; then
  echo "sanitize: sanitizer reports:" >&2
  for f in "$logs"/*; do
    echo "== $f" >&2
    head -60 "$f" >&2
  done
  status=1
fi
[ "$status" = 0 ] && echo "sanitize: clean"
exit "$status"

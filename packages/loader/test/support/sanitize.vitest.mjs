// The vitest configuration of scripts/sanitize.sh: the cases it runs on the sanitized host and on the sanitized
// addon, in one vitest run. Each build gets projects of its own (derived from the workspace's loader and serve
// integration projects: same roots, limits and retry) with its files, its case filter and its environment.
// Only the addon's workers run with libasan preloaded: vitest's own process, its global setup (make, the node
// calls of the Makefiles) and the host's workers run in a plain node, where a preloaded libasan would only make
// every start-up slower. The script passes the builds and the sanitizer settings in the SANITIZE_* variables.
import { defineConfig } from 'vitest/config';
import workspace from '../../../../vitest.config.js';

/** @param {string} name */
function required(name) {
  const value = process.env[name];
  if (!value) throw new Error(`sanitize.vitest.mjs: ${name} is not set (run scripts/sanitize.sh)`);
  return value;
}

const projects = workspace.test?.projects ?? [];

/**
 * The workspace's project `name`, its case files narrowed to `files`, renamed `as` and given `env` and the case
 * filter `pattern`. vitest's types have testNamePattern at the root only, but each project's own is the one its
 * files are filtered with (vitest 4.1); were it ignored, the host run would take in the memory-limit case, which
 * ASan cannot run under.
 * @param {string} name @param {string} as @param {string[]} files @param {RegExp} pattern
 * @param {Record<string, string>} env
 */
function derived(name, as, files, pattern, env) {
  const base = projects.find((p) => p.test?.name === name);
  if (base?.test === undefined)
    throw new Error(`sanitize.vitest.mjs: no project ${name} in vitest.config.ts`);
  return {
    ...base,
    test: {
      ...base.test,
      name: as,
      include: files.map((f) => `test/${f}.test.ts`),
      testNamePattern: pattern,
      env,
    },
  };
}

/** Which builds to run (`host`, `addon` or both), as the script's argument says. */
const what = process.env.SANITIZE_WHAT ?? 'all';
const list = [];
if (what === 'all' || what === 'host') {
  // Every case of isolated.test.ts but the memory limit (it caps the address space, which ASan's shadow memory
  // cannot live under), the process-mode cases of context.test.ts (not "(none)"), all of faults-stdio.test.ts,
  // and the `--isolation process` case of serve-context-late.test.ts.
  const pattern = /^(?!.*memoryLimitMb)(?!.*\(none\))(?!.*--isolation none)/;
  const env = {
    ASAN_OPTIONS: required('SANITIZE_HOST_ASAN_OPTIONS'),
    ENTROPIC_PLUGIN_HOST: required('SANITIZE_HOST'),
  };
  list.push(
    derived('loader:integration', 'sanitize:host:loader', ['isolated', 'context'], pattern, env),
    derived('serve:integration', 'sanitize:host:serve', ['faults-stdio', 'serve-context-late'], pattern, env),
  );
}
if (what === 'all' || what === 'addon') {
  // Node itself is not built with ASan: its own leaks and allocator pairs are not ours to judge. Every case of the
  // three inprocess*.test.ts files, the "(none)" cases of context.test.ts (not the other "plugin context" ones),
  // and the `--isolation none` case of serve-context-late.test.ts.
  const pattern = /^(?!.*plugin context(?! \(none\)))(?!.*--isolation (?!none))/;
  const env = {
    LD_PRELOAD: required('SANITIZE_LIBASAN'),
    ASAN_OPTIONS: required('SANITIZE_ADDON_ASAN_OPTIONS'),
    ENTROPIC_LOADER_ADDON: required('SANITIZE_ADDON'),
  };
  list.push(
    derived(
      'loader:integration',
      'sanitize:addon:loader',
      ['inprocess', 'inprocess-threads', 'inprocess-lifecycle', 'context'],
      pattern,
      env,
    ),
    derived('serve:integration', 'sanitize:addon:serve', ['serve-context-late'], pattern, env),
  );
}

// The loader's and serve's global setups are the same (make of the fixtures and the examples): the first project
// keeps its own, the others none, so it runs once.
const projectsOnce = list.map((p, i) => (i === 0 ? p : { ...p, test: { ...p.test, globalSetup: [] } }));

export default defineConfig({
  test: {
    projects: projectsOnce,
    maxWorkers: workspace.test?.maxWorkers,
    reporters: ['dot'],
  },
});

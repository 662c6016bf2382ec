// The one vitest configuration of the workspace. Each suite below becomes up to two projects:
//   <name>:unit         in memory: the colocated src/**/*.test.ts and the test/ files listed in `unit`. No child
//                       process, socket, compiled plugin or server (scripts/vitest/in-memory.ts refuses them).
//   <name>:integration  the rest of test/: builds, compiled C, child processes, sockets, Redis, HAProxy.
// `pnpm test:fast` runs every unit project, a package's `pnpm test` its own (`--project '<name>:*'`), and
// `npm test` all of them in one run, several files at a time, the longest first (scripts/vitest/sequencer.ts).
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { LongestFirst } from './scripts/vitest/sequencer.js';

interface Suite {
  /** The project names' prefix. */
  readonly name: string;
  /** The package folder, from the repository root. */
  readonly dir: string;
  /**
   * test/ files that run in memory too, so they join the unit lane. The exports tests stay out: they read the
   * built package with the TypeScript compiler (seconds each), so they belong with the build.
   */
  readonly unit?: readonly string[];
  /** The integration lane's files. */
  readonly integration?: readonly string[];
  readonly testTimeout?: number;
  readonly hookTimeout?: number;
  /** Global setup of the integration lane, from the package folder. */
  readonly globalSetup?: readonly string[];
  /**
   * Run the integration lane after every other project has finished, this many files at a time: for suites
   * whose scenarios load the whole machine on purpose and judge how the product holds up under that load alone.
   */
  readonly alone?: { readonly maxWorkers: number };
}

const MINUTE = 60_000;
const inTest = (name: string) => `test/${name}.test.ts`;

const SUITES: readonly Suite[] = [
  { name: 'abi-headers', dir: 'packages/abi-headers' },
  {
    name: 'codegen',
    dir: 'packages/codegen',
    unit: ['committed', 'definition-edits', 'docs-steps', 'header-facts', 'lock-file'].map(inTest),
  },
  {
    name: 'server',
    dir: 'packages/server',
    unit: [
      'fuzz-envelope',
      'fuzz-modern-stdio',
      'middleware-recipes',
      'middleware-stdio',
      'modern-era',
      'modern-mrtr',
      'sdk-in-memory',
      'standard-schema',
      'stdio',
      'transport-in-memory',
      'transport-stdio',
      'typed-prompts',
    ].map(inTest),
  },
  { name: 'redis', dir: 'packages/redis', testTimeout: MINUTE, hookTimeout: MINUTE },
  // The C fixtures and the example plugins are compiled once, before any file runs.
  { name: 'loader', dir: 'packages/loader', globalSetup: ['test/support/global-setup.ts'] },
  // `entropic-mcp` as a child process, against the same C fixtures and examples (compiled once, as for the loader).
  { name: 'serve', dir: 'packages/serve', globalSetup: ['test/support/global-setup.ts'] },
  // Node, Redis and connection faults, each on a cluster of its own; the table of every scenario at the end. They
  // run last, two files at a time, on a machine the other suites no longer load (`npm test` gives them a phase of
  // their own, beside the typecheck only: scripts/run.mjs).
  {
    name: 'chaos',
    dir: 'tests/chaos',
    testTimeout: 4 * MINUTE,
    hookTimeout: 2 * MINUTE,
    globalSetup: ['test/support/results.ts'],
    alone: { maxWorkers: 2 },
  },
  { name: 'publish', dir: 'tests/publish' },
  // The fetch handler's examples on the real Bun, Deno and workerd binaries from npm.
  { name: 'runtimes', dir: 'tests/runtimes' },
  {
    name: 'bench',
    dir: 'bench',
    integration: ['test/**/*.test.ts', 'test/**/*.test.mjs'],
    testTimeout: 5 * MINUTE,
    hookTimeout: 5 * MINUTE,
  },
  // The repository's own scripts (the step runner behind `npm test`).
  { name: 'scripts', dir: '.', integration: ['scripts/test/**/*.test.mjs'] },
];

const IN_MEMORY = fileURLToPath(new URL('scripts/vitest/in-memory.ts', import.meta.url));
/** Removes the temp folders a test file made through the kit once the file is done. */
const CLEANUP = fileURLToPath(new URL('tests/kit/src/cleanup.ts', import.meta.url));

function projectsOf(suite: Suite): TestProjectInlineConfiguration[] {
  const root = fileURLToPath(new URL(`${suite.dir}/`, import.meta.url));
  const limits = {
    testTimeout: suite.testTimeout ?? 2 * MINUTE,
    hookTimeout: suite.hookTimeout ?? 2 * MINUTE,
  };
  const unit = suite.dir === '.' ? [] : ['src/**/*.test.ts', ...(suite.unit ?? [])];
  const integration = suite.integration ?? ['test/**/*.test.ts'];
  return [
    {
      extends: true,
      // Worker threads rather than forked processes: each file still gets a module graph of its own, and a file
      // without a child process or native code needs no process of its own (a fifth less CPU for the lane). The
      // files stay isolated: sharing a thread's modules saves a third of the lane's CPU, but OpenTelemetry's global
      // providers (and any other module state) then pass from one file to the next, and the telemetry tests fail.
      test: {
        name: `${suite.name}:unit`,
        root,
        include: unit,
        setupFiles: [CLEANUP, IN_MEMORY],
        pool: 'threads',
        ...limits,
      },
    },
    {
      extends: true,
      test: {
        name: `${suite.name}:integration`,
        root,
        include: integration,
        exclude: ['**/node_modules/**', ...(suite.unit ?? [])],
        globalSetup: [...(suite.globalSetup ?? [])],
        setupFiles: [CLEANUP],
        // The workspace's built packages load through Node's own import, as a user's code loads them, rather than
        // through the module runner (which handles them as sources, since their real path is outside
        // node_modules): a tenth to a fifth of a second less per file that imports the server.
        server: { deps: { external: [/\/packages\/[^/]+\/dist\//] } },
        // One more attempt for a failed integration test: each fresh-clone run on 2 cores met one or two
        // different timing failures (scale-delivery's connection count, a chaos cut scenario); a real fault
        // fails both attempts, and the retry is printed.
        retry: 1,
        ...limits,
        ...(suite.alone === undefined
          ? {}
          : { maxWorkers: suite.alone.maxWorkers, sequence: { groupOrder: 1, sequencer: LongestFirst } }),
      },
    },
  ].filter((project) => project.test.include.length > 0);
}

/**
 * Files at a time: most integration files wait on child processes and sockets rather than compute, so twice the
 * cores keeps a 2-core machine busy. ENTROPIC_TEST_WORKERS (or vitest's --maxWorkers) overrides it.
 */
const workers = Number(process.env.ENTROPIC_TEST_WORKERS) || Math.max(2, availableParallelism() * 2);

export default defineConfig({
  test: {
    projects: SUITES.flatMap(projectsOf),
    maxWorkers: workers,
    sequence: { sequencer: LongestFirst },
    reporters: ['default', ['json', { outputFile: '.vitest-results.json' }]],
  },
});

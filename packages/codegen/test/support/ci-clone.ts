// The repository CI sees: an origin whose `main` gets a commit, cloned afresh (no tags, no other branch),
// and the ABI gate run in the clone exactly as `npm test` runs it (the command is read from scripts/run.mjs).
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { Scenario, WORKSPACE } from './check-scenario.js';
import { entropicAbi } from './mutations.js';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '../../dist/cli.js');

/** The arguments `npm test` (scripts/run.mjs) gives pnpm to run the ABI gate: `exec entropic-abi check …`. */
export function gateArgv(): string[] {
  const script = readFileSync(join(WORKSPACE, 'scripts', 'run.mjs'), 'utf8');
  const call = /must\('pnpm', \[('exec', 'entropic-abi', 'check'[^\]]*)\]\)/.exec(script);
  if (!call)
    throw new Error(
      "scripts/run.mjs no longer runs the gate as must('pnpm', ['exec', 'entropic-abi', 'check', …])",
    );
  return [...call[1]!.matchAll(/'([^']*)'/g)].map((m) => m[1]!);
}

export interface GateRun {
  code: number | null;
  /** Everything the gate printed. */
  text: string;
  /** The clone it ran in. */
  clone: string;
}

/** The commits of the CI template every case starts from. */
export interface CiTemplate {
  dir: string;
  /** abi-headers 0.1.0 and no release record. */
  unrecorded: string;
  /** abi-headers 0.1.0 with its baseline record (the state of the repository before its first release). */
  baseline: string;
  /** The release of 0.2.0 on top of it: version raised, record written. */
  released: string;
}

async function record(s: Scenario, ...args: string[]): Promise<void> {
  const run = await entropicAbi(s, ['record-release', ...args]);
  expect(run.code, run.text).toBe(0);
}

/**
 * For one test file: the template (made once), and `ci(at, change)`: copies it as the origin at `at`, lets
 * `change` commit on its main, clones the origin afresh and runs the gate there as `npm test` does.
 */
export function ciClonesForThisFile(): {
  template: () => CiTemplate;
  ci: (at: keyof Omit<CiTemplate, 'dir'>, change: (origin: Scenario) => Promise<unknown>) => Promise<GateRun>;
} {
  let template: CiTemplate;
  const made: string[] = [];
  beforeAll(async () => {
    const dir = Scenario.template();
    made.push(dir);
    const s = Scenario.fromDir(dir);
    cpSync(join(WORKSPACE, '.gitignore'), join(dir, '.gitignore'));
    s.setVersion('0.1.0').commit('abi-headers 0.1.0');
    const unrecorded = s.git('rev-parse', 'HEAD').trim();
    await record(s, '--baseline');
    s.commit('abi-headers 0.1.0: baseline record');
    const baseline = s.git('rev-parse', 'HEAD').trim();
    s.setVersion('0.2.0');
    await record(s);
    s.commit('release: abi-headers 0.2.0');
    template = { dir, unrecorded, baseline, released: s.git('rev-parse', 'HEAD').trim() };
  });
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  const ci = async (at: keyof Omit<CiTemplate, 'dir'>, change: (origin: Scenario) => Promise<unknown>) => {
    const origin = Scenario.from(template.dir, null);
    made.push(origin.dir);
    origin.git('reset', '-q', '--hard', template[at]);
    await change(origin);
    const clone = mkdtempSync(join(tmpdir(), 'abi-gate-clone-'));
    made.push(clone);
    const r = spawnSync('git', [
      'clone',
      '-q',
      '--no-tags',
      '--single-branch',
      '--branch',
      'main',
      origin.dir,
      clone,
    ]);
    if (r.status !== 0) throw new Error(`git clone failed: ${r.stderr}`);
    return runGateAsNpmTest(clone);
  };
  return { template: () => template, ci };
}

/**
 * Runs the gate in `clone` with the command `npm test` uses, through pnpm; `entropic-abi` is this package's
 * built CLI (a fresh clone has no node_modules, so a bin shim stands where pnpm would link it).
 */
export function runGateAsNpmTest(clone: string, env: NodeJS.ProcessEnv = process.env): GateRun {
  const bin = join(clone, 'node_modules', '.bin');
  mkdirSync(bin, { recursive: true });
  const shim = join(bin, 'entropic-abi');
  writeFileSync(shim, `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`);
  chmodSync(shim, 0o755);
  const r = spawnSync('pnpm', gateArgv(), { cwd: clone, env, encoding: 'utf8' });
  if (r.error) throw r.error;
  return { code: r.status, text: `${r.stdout}${r.stderr}`, clone };
}

/** Runs the built `entropic-abi check ARGS` in `clone` with exactly the environment `env`. */
export function runCheckIn(clone: string, args: string[], env: NodeJS.ProcessEnv): GateRun {
  const r = spawnSync(process.execPath, [CLI, 'check', ...args], { cwd: clone, env, encoding: 'utf8' });
  if (r.error) throw r.error;
  return { code: r.status, text: `${r.stdout}${r.stderr}`, clone };
}

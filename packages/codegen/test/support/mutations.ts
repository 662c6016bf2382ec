// Runs ABI mutation cases: the documented steps executed through the CLI's own command modules
// (in-process, in the scenario repository), then `entropic-abi check` in several modes, each verdict asserted.
import { expect } from 'vitest';
import { abigailAvailable } from '../../src/abigail/tools.js';
import { STEPS, type StepKind } from '../../src/check/steps.js';
import type { CommandContext, CommandModule } from '../../src/command.js';
import * as abiDump from '../../src/commands/abi-dump.js';
import * as check from '../../src/commands/check.js';
import * as generate from '../../src/commands/generate.js';
import * as lock from '../../src/commands/lock.js';
import * as recordRelease from '../../src/commands/record-release.js';
import type { Scenario } from './check-scenario.js';

export interface CommandRun {
  code: number;
  /** Everything the command printed. */
  text: string;
}

const COMMANDS: Record<string, CommandModule> = {
  'abi-dump': abiDump,
  check,
  generate,
  lock,
  'record-release': recordRelease,
};

/**
 * Runs `entropic-abi <argv>` in-process with the scenario repository as its working directory, in an
 * environment without CI (a case that wants the CI behaviour passes `--ci` or `env`).
 */
export async function entropicAbi(
  s: Scenario,
  argv: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<CommandRun> {
  const [name, ...args] = argv;
  const mod = COMMANDS[name ?? ''];
  if (!mod) throw new Error(`the mutation tests do not run 'entropic-abi ${name}'`);
  const lines: string[] = [];
  const ctx: CommandContext = { cwd: s.dir, out: (t) => lines.push(t), err: (t) => lines.push(t), env };
  const code = await mod.run(args, ctx);
  return { code, text: lines.join('\n') };
}

/** The API version the scenario's definitions declare. */
function apiVersion(s: Scenario): number {
  const m = /ENTROPIC_MCP_PLUGIN_API_VERSION: (\d+);/.exec(s.read('src/abi/mcp_server.ts'));
  if (!m) throw new Error('no ENTROPIC_MCP_PLUGIN_API_VERSION in the scenario');
  return Number(m[1]);
}

/**
 * Runs the documented steps of `kind` (STEPS, the same list the docs and the gate's messages show).
 * `only` limits them to the given step kinds (e.g. a developer who runs the commands but writes no
 * changeset). Returns what each command printed.
 */
export async function followSteps(
  s: Scenario,
  kind: StepKind,
  only?: ('bump' | 'command' | 'changeset')[],
): Promise<CommandRun[]> {
  const runs: CommandRun[] = [];
  for (const step of STEPS[kind]) {
    if (only && !only.includes(step.kind)) continue;
    if (step.kind === 'bump') s.bumpApiVersion(apiVersion(s) + 1);
    else if (step.kind === 'changeset') s.changeset(`abi-${step.bump}`, step.bump);
    else {
      const run = await entropicAbi(s, step.argv);
      expect(run.code, `${step.text}\n${run.text}`).toBe(0);
      runs.push(run);
    }
  }
  return runs;
}

/** The rule ids in a check's printed report, in order. */
export function printedRules(text: string): string[] {
  return [...text.matchAll(/^✖ \[([a-z-]+)\]/gm)].map((m) => m[1]!);
}

export interface Verdict {
  /** Rules expected to fail with the binary layer off (none: the check passes). */
  rules: string[];
  /** Rules expected with the binary layer on, when it differs (the layer matters for this case). */
  binaryRules?: string[];
  /** Texts the report must contain whenever it fails. */
  mentions?: string[];
}

/**
 * Checks the committed case once per base option (default `--base main`, then plainly: the default
 * base), each run asserting the expected verdict. Where the binary layer matters (`binaryRules`) every
 * base runs with the layer off and on; otherwise the first base runs with it off and the last with
 * it on (off too where abigail-tools is missing).
 */
export async function expectVerdict(
  s: Scenario,
  verdict: Verdict,
  bases: string[][] = [['--base', 'main'], []],
): Promise<CommandRun[]> {
  const abigail = abigailAvailable();
  const modes: { args: string[]; binary: boolean }[] = [];
  for (const [i, base] of bases.entries()) {
    const last = i === bases.length - 1;
    if (verdict.binaryRules || !last || !abigail)
      modes.push({ args: [...base, '--no-binary'], binary: false });
    if (abigail && (verdict.binaryRules || last)) modes.push({ args: base, binary: true });
  }
  const runs: CommandRun[] = [];
  for (const mode of modes) {
    const run = await entropicAbi(s, ['check', ...mode.args]);
    const want = mode.binary ? (verdict.binaryRules ?? verdict.rules) : verdict.rules;
    const where = `entropic-abi check ${mode.args.join(' ')}\n${run.text}`;
    expect(printedRules(run.text), where).toEqual(want);
    expect(run.code, where).toBe(want.length === 0 ? 0 : 1);
    if (want.length > 0) for (const m of verdict.mentions ?? []) expect(run.text, where).toContain(m);
    runs.push(run);
  }
  return runs;
}

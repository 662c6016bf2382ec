// The step runner behind `npm test` (scripts/steps.mjs), on a tiny fake plan: it prints the plan and each step's
// time, stops at a failing step, runs lanes at the same time (a failure ends its own lane only), and on SIGTERM or
// SIGINT ends every process the running steps started (in their group, in a group of their own, one that ignores
// SIGTERM) and exits with 128 + the signal's number.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const PLAN = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'steps', 'plan.mjs');
const dirs = [];
const started = [];

afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone, as it should be
    }
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Polls `check` until it returns a value other than undefined; fails naming `what` after `ms`. */
async function waitFor(what, check, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whether `pid` runs (a zombie, ended but not yet reaped by its new parent, does not). */
function running(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The five pids tree.mjs wrote to `file`, once it has written them all. */
function treePids(file) {
  if (!existsSync(file)) return undefined;
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number);
  return lines.length === 5 ? lines : undefined;
}

function startPlan(...args) {
  const dir = mkdtempSync(join(tmpdir(), 'entropic-steps-'));
  dirs.push(dir);
  const pidFile = join(dir, 'pids');
  const child = spawn(process.execPath, [PLAN, pidFile, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, pidFile, exited, output: () => output };
}

describe('the step runner', () => {
  it('prints the plan, each step with its time and the total, and stops at the failing step', async () => {
    const plan = startPlan('fail');
    expect(await plan.exited).toEqual({ code: 3, signal: null });
    const out = plan.output();
    expect(out).toMatch(
      /fake plan: 3 steps\n\s+1\. quick\s+exits at once\n\s+2\. failing\s+exits with 3\n\s+3\. last/,
    );
    expect(out).toMatch(/✔ quick \(\d+\.\d s\)/);
    expect(out).toMatch(/✖ failing \(\d+\.\d s\): exited with 3/);
    expect(out).toMatch(
      /time per step\n\s+quick\s+\d+\.\d s\n\s+failing\s+\d+\.\d s {2}\(exit 3\)\n\s+last\s+not run/,
    );
    expect(out).toMatch(/total\s+\d+\.\d s {2}failed/);
  });

  it('runs lanes at the same time; a failing step ends its lane, the other lane runs to its end', async () => {
    const plan = startPlan('lanes-fail');
    expect(await plan.exited).toEqual({ code: 3, signal: null });
    const out = plan.output();
    expect(out).toMatch(
      /at the same time, each lane in order:\n\s+2\. slow\s+ends after 1 s {2}\[lane 1\]\n\s+3\. failing\s+exits with 3 {2}\[lane 2\]/,
    );
    // The failing step ends before the slow one, and the slow one still ends well.
    expect(out.indexOf('✖ failing')).toBeLessThan(out.indexOf('✔ slow'));
    expect(out).toMatch(
      /time per step\n\s+quick\s+\d+\.\d s\n\s+slow\s+\d+\.\d s\n\s+failing\s+\d+\.\d s {2}\(exit 3\)\n\s+skipped\s+not run\n\s+last\s+not run/,
    );
  });

  it('on SIGTERM ends the trees of every lane that runs', async () => {
    const plan = startPlan('lanes');
    const pids = [];
    for (const file of [plan.pidFile, `${plan.pidFile}.2`]) {
      pids.push(...(await waitFor(`the tree to write ${file}`, () => treePids(file))));
    }
    started.push(...pids);
    expect(pids.every(running), 'both trees run before the signal').toBe(true);

    plan.child.kill('SIGTERM');
    expect(await plan.exited).toEqual({ code: 143, signal: null });
    expect(pids.filter(running), 'left running after SIGTERM').toEqual([]);
    const out = plan.output();
    expect(out).toContain('SIGTERM received, stopping tree, tree 2 and every process it started');
    expect(out).toMatch(/tree\s+stopped\n\s+tree 2\s+stopped\n\s+last\s+not run/);
  });

  it('when npm running it is sent SIGTERM (the shell between them dies), ends the trees of every lane', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'entropic-steps-'));
    dirs.push(dir);
    const pidFile = join(dir, 'pids');
    const npm = spawn('npm', ['run', '--silent', 'plan', '--', pidFile, 'lanes'], {
      cwd: dirname(PLAN),
      env: { ...process.env, npm_config_update_notifier: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    for (const stream of [npm.stdout, npm.stderr]) stream.on('data', (chunk) => (output += chunk));
    // The plan's own stderr outlives npm: the streams end when the plan ends.
    const ended = Promise.all([npm.stdout, npm.stderr].map((s) => new Promise((r) => s.on('close', r))));
    const pids = [];
    for (const file of [pidFile, `${pidFile}.2`]) {
      pids.push(...(await waitFor(`the tree to write ${file}`, () => treePids(file))));
    }
    started.push(...pids);

    npm.kill('SIGTERM');
    await waitFor('every process of both trees to end', () => (pids.some(running) ? undefined : true));
    await ended;
    expect(output).toMatch(/fake plan: its parent process \(\d+\) ended/);
    expect(output).toMatch(/tree\s+stopped\n\s+tree 2\s+stopped\n\s+last\s+not run/);
    expect(output).toMatch(/total\s+\d+\.\d s {2}stopped by SIGHUP/);
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ])('on %s ends the whole tree of the running step and exits with %i', async (signal, code) => {
    const plan = startPlan();
    const pids = await waitFor('the tree to write its pids', () => treePids(plan.pidFile));
    started.push(...pids);
    expect(pids.every(running), 'the tree runs before the signal').toBe(true);

    plan.child.kill(signal);
    expect(await plan.exited).toEqual({ code, signal: null });
    // The runner waits for the tree before it exits: nothing of it may be left.
    expect(pids.filter(running), `left running after ${signal}`).toEqual([]);
    const out = plan.output();
    expect(out).toContain(`${signal} received, stopping tree and every process it started`);
    expect(out).toMatch(/tree\s+stopped\n\s+last\s+not run/);
    expect(out).toMatch(new RegExp(`total\\s+\\d+\\.\\d s {2}stopped by ${signal}`));
  });
});

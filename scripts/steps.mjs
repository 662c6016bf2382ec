// Runs a plan of named steps one after another (or, with `together`, in lanes at the same time) and says what it
// does: the plan up front, each step's time as it ends, and a table with the total at the end. Every command runs
// in a process group of its own; SIGINT, SIGTERM or SIGHUP, or the end of this process's parent (npm killed),
// stops every running command's whole tree (its group, and every descendant that left the group, found in /proc),
// then ends with 128 + the signal's number (SIGHUP's for a lost parent).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';

/**
 * @typedef {object} Step
 * @property {string} name   short name, shown in the plan and the table
 * @property {string} [what] the command line or a few words, shown in the plan
 * @property {(runner: Runner) => Promise<number> | number} run  the step; its result is its exit code
 */

/** `12.3 s`, or `4 min 05 s` from a minute on. */
export function formatDuration(ms) {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
}

/** Parent and start time of every process, from /proc (Linux); an empty map elsewhere. */
function processTable() {
  const table = new Map();
  if (!existsSync('/proc/self/stat')) return table;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(entry), { ppid: Number(fields[1]), state: fields[0], start: fields[19] });
    } catch {
      // the process ended while being read
    }
  }
  return table;
}

/** Whether `pid` still runs as the process first seen with start time `start` (a zombie has ended). */
function alive(pid, start) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[0] !== 'Z' && fields[19] === start;
  } catch {
    return existsSync('/proc/self/stat') ? false : signal(pid, 0);
  }
}

function signal(pid, name) {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts commands as process-group leaders and stops their whole trees on request. */
export class Runner {
  /** @type {Map<number, import('node:child_process').ChildProcess>} */
  #children = new Map();
  /** @type {Promise<void> | undefined} */
  #stopped;

  /**
   * @param {NodeJS.ProcessEnv} env  the commands' environment
   * @param {string} cwd  their working directory
   * @param {number} graceMs  how long a stopped tree gets to end after SIGTERM before SIGKILL
   */
  constructor(env = process.env, cwd = process.cwd(), graceMs = 5_000) {
    this.env = env;
    this.cwd = cwd;
    this.graceMs = graceMs;
  }

  /** Runs `cmd args` to its end (output to this process's) and resolves with its exit code. */
  exec(cmd, args, options = {}) {
    if (this.#stopped !== undefined) return Promise.resolve(1);
    return new Promise((resolve, reject) => {
      const child = spawn(cmd, args, {
        cwd: this.cwd,
        env: this.env,
        stdio: ['ignore', 'inherit', 'inherit'],
        detached: true,
        ...options,
      });
      this.#children.set(child.pid ?? -1, child);
      child.on('error', (error) => {
        this.#children.delete(child.pid ?? -1);
        reject(error);
      });
      child.on('exit', (code, sig) => {
        this.#children.delete(child.pid ?? -1);
        resolve(code ?? 128 + (constants.signals[sig] ?? 1));
      });
    });
  }

  /**
   * Stops every running command's tree: SIGTERM to each group and to each descendant (those that made groups of
   * their own too), then SIGKILL to whatever still runs after the grace period. Resolves when all have ended.
   */
  stopAll() {
    this.#stopped ??= this.#stop();
    return this.#stopped;
  }

  async #stop() {
    /** @type {Map<number, string>} pid → start time, of every process seen in a tree */
    const seen = new Map();
    const scan = () => {
      const table = processTable();
      const children = new Map();
      for (const [pid, p] of table) {
        if (!children.has(p.ppid)) children.set(p.ppid, []);
        children.get(p.ppid).push(pid);
      }
      const todo = [...this.#children.keys(), ...seen.keys()];
      while (todo.length > 0) {
        const pid = todo.pop();
        const p = table.get(pid);
        if (p === undefined || p.state === 'Z') continue;
        if (seen.has(pid) && seen.get(pid) !== p.start) continue;
        seen.set(pid, p.start);
        for (const child of children.get(pid) ?? []) if (!seen.has(child)) todo.push(child);
      }
    };
    const hit = (name) => {
      for (const pid of this.#children.keys()) signal(-pid, name);
      for (const [pid, start] of seen) {
        if (!alive(pid, start)) continue;
        signal(-pid, name);
        signal(pid, name);
      }
    };
    const running = () => this.#children.size > 0 || [...seen].some(([pid, start]) => alive(pid, start));
    scan();
    hit('SIGTERM');
    for (const [name, ms] of [
      ['SIGKILL', this.graceMs],
      [undefined, 2_000],
    ]) {
      const deadline = Date.now() + ms;
      while (running() && Date.now() < deadline) {
        scan(); // children a process started while it was ending
        hit('SIGTERM');
        await sleep(100);
      }
      if (name !== undefined && running()) {
        scan();
        hit(name);
      }
    }
  }
}

/**
 * Steps that run at the same time as each other: each lane's steps one after another, all lanes at once. A failing
 * step ends its own lane only; the others run to their end, so one run shows every failure.
 * @param {...(Step | Step[])} lanes
 * @returns {{ lanes: Step[][] }}
 */
export function together(...lanes) {
  return { lanes: lanes.map((lane) => (Array.isArray(lane) ? lane : [lane])) };
}

/**
 * Runs `plan` in order, stopping at the first step that fails, and returns the exit code for the whole run: 0, the
 * failed step's code, or 128 + n after signal n. An item of the plan made by `together` runs its lanes at the same
 * time. `log` receives the plan, the report and failures (stderr).
 * @param {string} title
 * @param {(Step | { lanes: Step[][] })[]} plan
 * @param {{ runner?: Runner, log?: (line: string) => void, quiet?: boolean }} [options] quiet: no plan, no table
 */
export async function runSteps(title, plan, options = {}) {
  const runner = options.runner ?? new Runner();
  const write = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  const log = options.quiet ? () => {} : write;
  /** @type {{ step: Step, lane?: number, ms?: number, code?: number, running?: boolean }[]} */
  const entries = [];
  const items = plan.map((item) => {
    if (!('lanes' in item)) {
      entries.push({ step: item });
      return entries.at(-1);
    }
    return item.lanes.map((lane, i) =>
      lane.map((step) => {
        entries.push({ step, lane: i + 1 });
        return entries.at(-1);
      }),
    );
  });
  const width = Math.max(...entries.map((e) => e.step.name.length));
  const line = (e, text) => `${e.step.name.padEnd(width)}  ${text}`.trimEnd();
  log(`${title}: ${entries.length} steps`);
  for (const item of items) {
    if (Array.isArray(item)) log('  at the same time, each lane in order:');
    for (const e of Array.isArray(item) ? item.flat() : [item]) {
      const lane = e.lane === undefined ? '' : `  [lane ${e.lane}]`;
      log(`  ${String(entries.indexOf(e) + 1).padStart(2)}. ${line(e, `${e.step.what ?? ''}${lane}`)}`);
    }
  }

  const started = Date.now();
  let stopped;
  const report = (code) => {
    log(`\n${title}: time per step`);
    for (const e of entries) {
      const time = e.ms !== undefined ? formatDuration(e.ms) : e.running ? 'stopped' : 'not run';
      const failed = e.code !== undefined && e.code !== 0 ? `  (exit ${e.code})` : '';
      log(`  ${line(e, `${time.padStart(10)}${failed}`)}`);
    }
    const outcome = stopped ? `stopped by ${stopped}` : code === 0 ? 'passed' : 'failed';
    log(`  ${'total'.padEnd(width)}  ${formatDuration(Date.now() - started).padStart(10)}  ${outcome}`);
  };

  const onSignal = (name) => {
    if (stopped !== undefined) return;
    stopped = name;
    const running = entries.filter((e) => e.running).map((e) => e.step.name);
    const what = running.length > 0 ? running.join(', ') : 'the run';
    write(`\n${title}: ${name} received, stopping ${what} and every process it started`);
  };
  const handlers = ['SIGINT', 'SIGTERM', 'SIGHUP'].map((name) => {
    const handler = () => {
      onSignal(name);
      runner.stopAll();
    };
    process.on(name, handler);
    return [name, handler];
  });
  // `npm test` runs this under `sh -c`: a SIGTERM to npm reaches the shell, which ends without passing it on. When
  // the parent is gone (this process re-parented), the run stops as on a hangup.
  const parent = process.ppid;
  const orphaned = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(orphaned);
    if (stopped === undefined) write(`\n${title}: its parent process (${parent}) ended`);
    onSignal('SIGHUP');
    runner.stopAll();
  }, 250);
  orphaned.unref();

  /** Runs one step, records its time and code, and resolves with the code. */
  const run = async (e) => {
    const { step } = e;
    const begun = Date.now();
    e.running = true;
    log(`\n▶ ${step.name}${step.what ? `: ${step.what}` : ''}`);
    let code;
    try {
      code = await step.run(runner);
    } catch (error) {
      write(`✖ ${step.name}: ${error instanceof Error ? error.message : String(error)}`);
      code = 1;
    }
    if (stopped !== undefined) return code;
    e.running = false;
    e.ms = Date.now() - begun;
    e.code = code;
    const text = `${step.name} (${formatDuration(e.ms)})`;
    if (code === 0) log(`✔ ${text}`);
    else write(`✖ ${text}: exited with ${code}`);
    return code;
  };
  /** Runs a lane's steps in order up to the first that fails. */
  const runLane = async (lane) => {
    for (const e of lane) {
      if (stopped !== undefined) return 0;
      const code = await run(e);
      if (code !== 0) return code;
    }
    return 0;
  };

  let code = 0;
  try {
    for (const item of items) {
      if (stopped !== undefined) break;
      if (Array.isArray(item)) {
        const codes = await Promise.all(item.map(runLane));
        code = codes.find((c) => c !== 0) ?? 0;
      } else {
        code = await run(item);
      }
      if (code !== 0) break;
    }
    if (stopped !== undefined) {
      await runner.stopAll();
      code = 128 + (constants.signals[stopped] ?? 15);
    }
    report(code);
    return code;
  } finally {
    clearInterval(orphaned);
    for (const [name, handler] of handlers) process.off(name, handler);
  }
}

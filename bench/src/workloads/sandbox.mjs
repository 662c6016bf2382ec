// What the plugin sandbox costs (issue 34), sandbox off and on, interleaved round by round: the host's start-up
// (spawn to its ready frame), one system call in the host (what the seccomp filter adds), and the echo example's
// calls through loadPlugin, awaited one at a time and 64 in flight.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { childrenCpuSecondsOf, cpuSecondsOf } from '../proc.mjs';
import { abiIncludeDir, echoPlugin, rootDir } from '../targets.mjs';

const loaderDist = `${rootDir}packages/loader/dist/`;
const LIBSECCOMP_HOST = `${rootDir}packages/loader/test/fixtures/build/entropic_plugin_host_libseccomp`;

/** The sandboxes whose start-up is timed, as the loader plans them for this system. */
async function startVariants(host) {
  const { probeHost } = await import(`${loaderDist}sandbox/probe.js`);
  const { planSandbox } = await import(`${loaderDist}sandbox/plan.js`);
  const { checkSandboxOptions } = await import(`${loaderDist}sandbox/options.js`);
  const support = await probeHost(host);
  const plan = (options) => planSandbox(checkSandboxOptions(options), support);
  const full = plan({ memoryMb: 256, cpuSeconds: 3600, openFiles: 64, read: ['/usr/share'] });
  const counted = plan({ processes: 4 });
  const variants = [
    { name: 'off', label: 'no sandbox', host },
    {
      name: 'sandbox',
      label: `sandbox {read, memory, cpu, open files} (${support.seccomp ?? 'no seccomp'})`,
      host,
      plan: full,
    },
    {
      name: 'processes',
      label: `sandbox {processes: 4} (${counted.cgroupDir ? 'pids cgroup' : 'RLIMIT_NPROC'})`,
      host,
      plan: counted,
      skipped: counted.missing.length > 0 ? `not enforceable here: ${counted.missing.join('; ')}` : undefined,
    },
    {
      name: 'libseccomp',
      label: 'sandbox {read, memory, cpu, open files}, filter written by libseccomp',
      host: LIBSECCOMP_HOST,
      plan: full,
      skipped: existsSync(LIBSECCOMP_HOST) ? undefined : 'not built: make -C packages/loader/test/fixtures',
    },
  ];
  return { variants, missing: full.missing };
}

/**
 * Milliseconds from spawn to the host's first frame (the plugin loaded in its sandbox), and the CPU time the host
 * used until then (which other work on the machine moves less than the wall time); then it is closed.
 */
async function startOnce(variant, plugin, removeHostCgroup) {
  const env = { ...process.env };
  if (variant.plan) env.ENTROPIC_HOST_SANDBOX = variant.plan.env;
  const started = performance.now();
  const child = spawn(variant.host, [plugin], { stdio: ['pipe', 'pipe', 'inherit'], env });
  const ready = await new Promise((resolve, reject) => {
    child.stdout.once('data', () =>
      resolve({ wall: performance.now() - started, cpu: cpuSecondsOf(child.pid) * 1000 }),
    );
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the host exited with ${code} before its ready frame`)));
  });
  const gone = new Promise((resolve) => child.once('close', resolve));
  child.stdin.end();
  await gone;
  if (variant.plan?.cgroupDir) await removeHostCgroup(variant.plan.cgroupDir, child.pid);
  return ready;
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const p90 = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length * 0.9)];

async function startTable(plugin, opts, log) {
  const { findHost } = await import(`${loaderDist}addon/find-host.js`);
  const { removeHostCgroup } = await import(`${loaderDist}sandbox/cgroup.js`);
  const { variants, missing } = await startVariants(findHost(undefined, plugin));
  const live = variants.filter((v) => !v.skipped);
  const times = new Map(live.map((v) => [v.name, []]));
  const rounds = opts.quick ? 10 : 200;
  for (let i = 0; i < Math.max(2, rounds / 10); i++)
    for (const v of live) await startOnce(v, plugin, removeHostCgroup);
  for (let round = 0; round < rounds; round++)
    for (const v of live) times.get(v.name).push(await startOnce(v, plugin, removeHostCgroup));
  const wall = (name) => times.get(name).map((t) => t.wall);
  const cpu = (name) => times.get(name).map((t) => t.cpu);
  const off = { wall: median(wall('off')), cpu: median(cpu('off')) };
  const rows = variants.map((v) => {
    if (v.skipped) return { target: v.name, label: v.label, skipped: v.skipped };
    const row = {
      target: v.name,
      label: v.label,
      medianMs: median(wall(v.name)),
      p90Ms: p90(wall(v.name)),
      addedMs: median(wall(v.name)) - off.wall,
      cpuMs: median(cpu(v.name)),
      addedCpuMs: median(cpu(v.name)) - off.cpu,
    };
    log(`  start-up ${v.name}: median ${row.medianMs.toFixed(2)} ms (${row.cpuMs.toFixed(2)} ms CPU)`);
    return row;
  });
  const note = missing.length > 0 ? ` (not enforced here: ${missing.join('; ')})` : '';
  return {
    id: 'sandbox-start',
    title: `Plugin host start-up, spawn to ready frame, ${rounds} interleaved rounds${note}`,
    kind: 'sandbox-start',
    rows,
  };
}

const HOSTILE = `${rootDir}packages/loader/test/fixtures/sandbox/hostile.c`;

/** The hostile fixture plugin, compiled here (its `syscalls` tool times system calls in its own thread). */
function buildHostile() {
  const out = join(mkdtempSync(join(tmpdir(), 'entropic-bench-')), 'hostile.so');
  const flags = ['-std=gnu11', '-O2', '-fPIC', '-shared', `-I${abiIncludeDir}`];
  execFileSync('cc', [...flags, '-o', out, HOSTILE]);
  return out;
}

/**
 * What the seccomp filter adds to one system call: thread CPU time per getppid (checked against every row of the
 * filter) and per read(-1) (let through first), sandbox off and on, the lowest of interleaved rounds.
 */
async function syscallTable(opts, log) {
  const { loadPlugin } = await import(`${loaderDist}index.js`);
  const plugin = buildHostile();
  const quiet = { onStderr: () => {} };
  const variants = [
    { name: 'off', label: 'no sandbox', options: quiet },
    {
      name: 'sandbox',
      label: 'strictest sandbox, built-in BPF filter',
      options: { ...quiet, sandbox: { required: false } },
    },
  ];
  if (existsSync(LIBSECCOMP_HOST))
    variants.push({
      name: 'libseccomp',
      label: 'strictest sandbox, filter written by libseccomp',
      options: { ...quiet, hostPath: LIBSECCOMP_HOST, sandbox: { required: false } },
    });
  const loaded = [];
  for (const v of variants)
    loaded.push({ ...v, plugin: await loadPlugin(plugin, v.options), cold: [], hot: [] });
  const n = opts.quick ? 20_000 : 200_000;
  const rounds = opts.quick ? 3 : 15;
  for (let round = 0; round < rounds; round++) {
    for (const v of loaded) {
      const text = (await v.plugin.execute('try', { what: 'syscalls', n })).result;
      const [, cold, , hot] = text.split(' ');
      v.cold.push(Number(cold));
      v.hot.push(Number(hot));
    }
  }
  const low = (list) => Math.min(...list);
  const off = loaded[0];
  const rows = [];
  for (const v of loaded) {
    rows.push({
      target: v.name,
      label: v.label,
      coldNs: low(v.cold),
      hotNs: low(v.hot),
      addedColdNs: low(v.cold) - low(off.cold),
      addedHotNs: low(v.hot) - low(off.hot),
    });
    log(
      `  system call ${v.name}: getppid ${low(v.cold).toFixed(1)} ns, read(-1) ${low(v.hot).toFixed(1)} ns`,
    );
    await v.plugin.close();
  }
  return {
    id: 'sandbox-syscall',
    title: `One system call in the plugin host, thread CPU time, lowest of ${rounds} interleaved rounds of ${n}`,
    kind: 'sandbox-syscall',
    rows,
  };
}

/** `n` calls of `plugin`'s echo, `inflight` at a time, each awaited: the seconds they took. */
async function drive(plugin, n, inflight) {
  const started = performance.now();
  let left = n;
  const worker = async () => {
    while (left-- > 0) await plugin.execute('echo', { text: 'hello' });
  };
  await Promise.all(Array.from({ length: inflight }, worker));
  return (performance.now() - started) / 1000;
}

/**
 * The echo example through `loadPlugin` (as `serve` calls a plugin), sandbox off and on, both loaded at once and
 * measured in turn round after round: µs per call awaited one at a time, and calls/s with 64 in flight, with the
 * host's CPU per call. The ratios are taken round by round, so both sides of one ran under the same weather.
 */
async function callsTable(plugin, opts, log) {
  const { loadPlugin } = await import(`${loaderDist}index.js`);
  const quiet = { onStderr: () => {} };
  const variants = [
    { name: 'off', label: 'C plugin echo, no sandbox', plugin: await loadPlugin(plugin, quiet) },
    // required: false, so a kernel without a part still gets a figure (the start-up table names what is missing)
    {
      name: 'sandbox',
      label: 'C plugin echo, the strictest sandbox',
      plugin: await loadPlugin(plugin, { ...quiet, sandbox: { required: false } }),
    },
  ];
  const one = opts.quick ? 300 : 20_000;
  const many = opts.quick ? 2_000 : 200_000;
  const rounds = opts.quick ? 2 : 9;
  for (const v of variants) {
    await drive(v.plugin, Math.ceil(one / 4), 1);
    await drive(v.plugin, Math.ceil(many / 4), 64);
    Object.assign(v, { awaitedUs: [], perSecond: [], hostUs: [] });
  }
  for (let round = 0; round < rounds; round++) {
    for (const v of variants) {
      const cpu0 = childrenCpuSecondsOf(process.pid);
      v.awaitedUs.push(((await drive(v.plugin, one, 1)) * 1e6) / one);
      v.perSecond.push(many / (await drive(v.plugin, many, 64)));
      v.hostUs.push(((childrenCpuSecondsOf(process.pid) - cpu0) * 1e6) / (one + many));
    }
    log(
      `  calls #${round + 1}: ${variants.map((v) => `${v.name} ${v.awaitedUs.at(-1).toFixed(1)} µs awaited, ${Math.round(v.perSecond.at(-1))}/s at 64`).join('; ')}`,
    );
  }
  const [off] = variants;
  const rows = [];
  for (const v of variants) {
    const ratio = (list, base, invert) => median(list.map((x, i) => (invert ? base[i] / x : x / base[i])));
    rows.push({
      target: v.name,
      label: v.label,
      awaitedUs: median(v.awaitedUs),
      perSecond: median(v.perSecond),
      hostCpuPerCallUs: median(v.hostUs),
      awaitedRatio: ratio(v.awaitedUs, off.awaitedUs, true),
      perSecondRatio: ratio(v.perSecond, off.perSecond, false),
      rounds: v.perSecond.map(Math.round),
    });
    await v.plugin.close();
  }
  return {
    id: 'sandbox-calls',
    title: `Echo calls through loadPlugin, sandbox off and on, ${rounds} interleaved rounds (medians)`,
    kind: 'sandbox-calls',
    rows,
  };
}

export async function sandboxWorkload(opts, log) {
  const plugin = echoPlugin();
  if (plugin === undefined) {
    const skipped = 'not built: examples/plugins/echo/build/*.so';
    return [
      {
        id: 'sandbox-start',
        title: 'Plugin host start-up',
        kind: 'sandbox-start',
        rows: [{ target: 'off', label: 'no sandbox', skipped }],
      },
    ];
  }
  return [
    await startTable(plugin, opts, log),
    await syscallTable(opts, log),
    await callsTable(plugin, opts, log),
  ];
}

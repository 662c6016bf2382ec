// What the plugin sandbox costs (issue 34): the host's start-up (spawn to its ready frame) with the sandbox off and
// on, interleaved round by round; and the echo example's calls through `serve --stdio`, isolated, without and with
// the strictest `--sandbox` (1 and 64 in flight, the stdio workload's measurements), with the host's CPU per call beside.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { cpuSecondsOf } from '../proc.mjs';
import { echoPlugin, rootDir } from '../targets.mjs';
import { stdioWorkload } from './stdio.mjs';

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
  const { findHost } = await import(`${loaderDist}isolated/find-host.js`);
  const { removeHostCgroup } = await import(`${loaderDist}sandbox/cgroup.js`);
  const { variants, missing } = await startVariants(findHost(undefined, plugin));
  const live = variants.filter((v) => !v.skipped);
  const times = new Map(live.map((v) => [v.name, []]));
  const rounds = opts.quick ? 10 : 200;
  for (let i = 0; i < Math.max(2, rounds / 10); i++)
    for (const v of live) await startOnce(v, plugin, removeHostCgroup);
  for (let round = 0; round < rounds; round++)
    for (const v of live) times.get(v.name).push(await startOnce(v, plugin, removeHostCgroup));
  const off = median(times.get('off'));
  const rows = variants.map((v) => {
    if (v.skipped) return { target: v.name, label: v.label, skipped: v.skipped };
    const list = times.get(v.name);
    const row = {
      target: v.name,
      label: v.label,
      medianMs: median(list),
      p90Ms: p90(list),
      addedMs: median(list) - off,
    };
    log(`  start-up ${v.name}: median ${row.medianMs.toFixed(2)} ms, p90 ${row.p90Ms.toFixed(2)} ms`);
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
  const start = await startTable(plugin, opts, log);
  const cli = `${loaderDist}cli.js`;
  const target = (name, label, extra) => ({
    name,
    label,
    command: process.execPath,
    args: [cli, 'serve', '--stdio', '--plugin', plugin, ...extra],
    tool: 'echo.echo',
    arguments: { text: 'hello' },
    expect: 'hello',
  });
  const calls = await stdioWorkload(
    [
      target('plugin-isolated', 'C plugin echo, isolated, no sandbox', []),
      // required: false, so a kernel without a part still gets a figure (the start-up table names what is missing)
      target('plugin-sandboxed', 'C plugin echo, isolated, --sandbox (the strictest)', [
        '--sandbox',
        '{required: false}',
      ]),
    ],
    opts,
    log,
  );
  return [
    start,
    ...calls.map((table) => ({
      ...table,
      id: `sandbox-${table.id}`,
      title: table.title.replace('stdio echo tools/call', 'Sandbox off and on: serve --stdio, C plugin echo'),
    })),
  ];
}

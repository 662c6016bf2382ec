// The targets of issues 6 (legacy era, stdio and HTTP), 10 (the 2026-07-28 era), 11 (the C plugin path and
// instances) and 24 (the C plugin path driven by a per-message client), checked against one run's tables.
import { cpuPerCall } from './summary.mjs';

const MiB = 2 ** 20;

function row(tables, id, target) {
  const r = tables.find((t) => t.id === id)?.rows.find((x) => x?.target === target);
  return r && !r.skipped && !r.error ? r : undefined;
}

function verdict(ok) {
  if (ok === undefined) return 'not measured';
  return ok ? 'met' : 'NOT met';
}

const ratioText = (a, b) =>
  `${(a.perSecond / b.perSecond).toFixed(2)}× (${Math.round(a.perSecond)}/s vs ${Math.round(b.perSecond)}/s)`;

/** Issue 10: the modern era over HTTP at 64 clients against SDK v2, the ceiling and our legacy stateless. */
function modernGoals(tables, opts, add) {
  const id = `http-modern-${opts.clients}`;
  const ours = row(tables, id, 'entropic');
  for (const [label, other, factor] of [
    [`HTTP 2026-07-28 ≥ 3× SDK v2 at ${opts.clients} clients`, row(tables, id, 'sdk-v2'), 3],
    [`HTTP 2026-07-28 ≥ 0.8× bare node:http at ${opts.clients} clients`, row(tables, id, 'bare'), 0.8],
    [
      `HTTP 2026-07-28 ≥ our legacy stateless at ${opts.clients} clients`,
      row(tables, `http-stateless-${opts.clients}`, 'entropic'),
      1,
    ],
  ]) {
    add(
      label,
      ours && other && ratioText(ours, other),
      ours && other && ours.perSecond >= factor * other.perSecond,
    );
  }
}

export function checkGoals(tables, opts) {
  const goals = [];
  const add = (target, measured, ok) =>
    goals.push({ target, measured: measured ?? '–', verdict: verdict(ok) });
  const many = row(tables, `stdio-${opts.inflight}`, 'entropic');
  add(
    'TS echo over stdio ≥ 100,000 calls/s at 64 in flight',
    many && `${Math.round(many.perSecond)}/s`,
    many && many.perSecond >= 100_000,
  );
  const one = row(tables, 'stdio-1', 'entropic');
  add(
    'TS echo over stdio p50 ≤ 100 µs at 1 in flight',
    one && `${Math.round(one.p50us)} µs`,
    one && one.p50us <= 100,
  );
  const plugin = row(tables, `stdio-${opts.inflight}`, 'plugin-isolated');
  add(
    'C plugin echo (serve --stdio, isolated) ≥ 60,000 calls/s at 64 in flight',
    plugin && `${Math.round(plugin.perSecond)}/s`,
    plugin && plugin.perSecond >= 60_000,
  );
  for (const mode of ['sse', 'json']) {
    const ours = row(tables, `http-${mode}-${opts.clients}`, 'entropic');
    const bare = row(tables, `http-${mode}-${opts.clients}`, 'bare');
    const r = ours && bare ? ours.perSecond / bare.perSecond : undefined;
    add(
      `HTTP (${mode}) ≥ 0.8× bare node:http at ${opts.clients} concurrent`,
      r &&
        `${r.toFixed(2)}× (${Math.round(ours.perSecond)}/s vs ${Math.round(bare.perSecond)}/s); by server CPU ` +
          `per call ${(bare.serverCpuPerCallUs / ours.serverCpuPerCallUs).toFixed(2)}× ` +
          `(${ours.serverCpuPerCallUs.toFixed(1)} vs ${bare.serverCpuPerCallUs.toFixed(1)} µs)`,
      r && r >= 0.8,
    );
  }
  modernGoals(tables, opts, add);
  for (const [kind, prefix] of [
    ['stdio', 'stdio-'],
    ['HTTP', 'http-'],
    ['growth check', 'growth'],
  ]) {
    const rss = tables
      .filter((t) => t.id.startsWith(prefix))
      .flatMap((t) => t.rows)
      .filter((r) => r && r.target === 'entropic' && r.peakRss);
    const label = `Peak RSS of the TS server ≤ 60 MiB (${kind} workloads)`;
    if (rss.length === 0) add(label);
    else {
      const peak = Math.max(...rss.map((r) => r.peakRss));
      add(label, `${(peak / MiB).toFixed(1)} MiB`, peak <= 60 * MiB);
    }
  }
  for (const r of tables.find((t) => t.id === 'growth')?.rows ?? []) {
    if (r.target !== 'entropic' || r.skipped || r.error) continue;
    const span = `${Math.round(r.points[0].calls / 1000)}k → ${Math.round(r.points.at(-1).calls / 1000)}k`;
    add(`RSS growth ${span} ≤ 5 % (${r.label})`, `${(r.growth * 100).toFixed(1)} %`, r.growth <= 0.05);
  }
  pluginGoals(tables, opts, add);
  sandboxGoals(tables, add);
  const check = row(tables, 'abi', 'check');
  add(
    'entropic-abi check < 3 s',
    check && `${(check.medianMs / 1000).toFixed(2)} s`,
    check && check.medianMs < 3000,
  );
  return goals;
}

/** The ratio of each round's throughputs, `a` over `b`, and their median: "median 0.62× of 0.58, 0.62, 0.66". */
export function pairedText(a, b) {
  const n = Math.min(a.runs?.length ?? 0, b.runs?.length ?? 0);
  if (n === 0) return 'n/a';
  const ratios = Array.from({ length: n }, (_, i) => a.runs[i] / b.runs[i]);
  const sorted = [...ratios].sort((x, y) => x - y);
  const median = n % 2 === 1 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  return `median ${median.toFixed(2)}× of ${ratios.map((r) => r.toFixed(2)).join(', ')}`;
}

/** Issue 11: the C plugin path beside the TypeScript echo of the same run, and what instances buy. */
function pluginGoals(tables, opts, add) {
  const ratio = (a, b) => (a && b ? a.perSecond / b.perSecond : undefined);
  const many = `stdio-${opts.inflight}`;
  const ts = row(tables, many, 'entropic');
  const isolated = row(tables, many, 'plugin-isolated');
  const inprocess = row(tables, many, 'plugin-inprocess');
  const v2 = row(tables, many, 'sdk-v2');
  // The same TS tool answering on the next event-loop turn, through serve: the server's own cost of an
  // asynchronous call, which every plugin call has too.
  const nextTurn = row(tables, many, 'serve-ts-async');
  // Best round against best round, and the median of the rounds' own ratios: every round visits every target
  // in turn, so round i of one row and round i of another ran close in time, under the same machine weather.
  const vs = (r, a, b) =>
    r &&
    `${r.toFixed(2)}× (${Math.round(a.perSecond)}/s vs ${Math.round(b.perSecond)}/s; round by round ${pairedText(a, b)})`;
  const beside = (a) => {
    const r = ratio(a, nextTurn);
    return r ? `; ${r.toFixed(2)}× the TS echo answering next turn through serve` : '';
  };
  const r1 = ratio(isolated, ts);
  add(
    'C plugin, isolated, stdio 64 in flight ≥ 0.6× TS echo',
    r1 && vs(r1, isolated, ts) + beside(isolated),
    r1 && r1 >= 0.6,
  );
  const r2 = ratio(isolated, v2);
  add('C plugin, isolated, stdio 64 in flight ≥ 3× SDK v2', vs(r2, isolated, v2), r2 && r2 >= 3);
  const r3 = ratio(inprocess, ts);
  add(
    'C plugin, --isolation none, stdio 64 in flight ≥ 0.75× TS echo',
    r3 && vs(r3, inprocess, ts) + beside(inprocess),
    r3 && r3 >= 0.75,
  );
  perMessageGoals(tables, opts, add, vs);
  const oneTs = row(tables, 'stdio-1', 'entropic');
  for (const name of ['plugin-isolated', 'plugin-inprocess']) {
    const one = row(tables, 'stdio-1', name);
    const gap = one && oneTs ? one.p50us - oneTs.p50us : undefined;
    add(
      `C plugin (${name.slice(7)}) p50 at 1 in flight within 30 µs of TS echo`,
      gap !== undefined &&
        `${gap >= 0 ? '+' : ''}${Math.round(gap)} µs (${Math.round(one.p50us)} vs ${Math.round(oneTs.p50us)} µs)`,
      gap !== undefined && gap <= 30,
    );
  }
  add(
    'Server CPU per plugin call, isolated, stdio 64 in flight ≤ 8 µs',
    isolated &&
      `${isolated.serverCpuPerCallUs.toFixed(1)} µs (TS echo ${ts?.serverCpuPerCallUs.toFixed(1)} µs)`,
    isolated && isolated.serverCpuPerCallUs <= 8,
  );
  const http = `http-sse-${opts.clients}`;
  const httpTs = row(tables, http, 'entropic');
  const httpPlugin = row(tables, http, 'plugin-isolated');
  const r4 = ratio(httpPlugin, httpTs);
  const httpServeTs = row(tables, http, 'serve-ts');
  const r4s = ratio(httpPlugin, httpServeTs);
  add(
    `C plugin, isolated, HTTP ${opts.clients} clients ≥ 0.8× TS echo`,
    r4 &&
      `${vs(r4, httpPlugin, httpTs)}; server CPU per call ${cpuPerCall(httpPlugin)} vs ${cpuPerCall(httpTs)} µs` +
        (r4s ? `; ${r4s.toFixed(2)}× the same TS tool through serve --http` : ''),
    r4 && r4 >= 0.8,
  );
  const x1 = row(tables, 'instances', 'spin-x1');
  const x2 = row(tables, 'instances', 'spin-x2');
  const r5 = ratio(x2, x1);
  add('2 ms CPU tool, 8 in flight: --instances 2 ≥ 1.6× one instance', vs(r5, x2, x1), r5 && r5 >= 1.6);
}

/**
 * Issue 34: the sandbox adds under 5 ms to a host's start-up and no measurable cost per call (within 5 % of the
 * same plugin without it, round by round, at 1 and at 64 in flight).
 */
function sandboxGoals(tables, add) {
  const start = row(tables, 'sandbox-start', 'sandbox');
  add(
    'Sandbox adds < 5 ms to a plugin host start-up (median)',
    start &&
      `+${start.addedMs.toFixed(2)} ms (${start.medianMs.toFixed(2)} ms); host CPU +${start.addedCpuMs.toFixed(2)} ms`,
    start && start.addedMs < 5,
  );
  const off = row(tables, 'sandbox-syscall', 'off');
  const on = row(tables, 'sandbox-syscall', 'sandbox');
  add(
    'Sandbox adds ≤ 5 % to a system call the host makes for each request (read), and to any other (getppid)',
    off &&
      on &&
      `read +${on.addedHotNs.toFixed(1)} ns of ${off.hotNs.toFixed(1)}; getppid +${on.addedColdNs.toFixed(1)} ns of ${off.coldNs.toFixed(1)}`,
    off && on && on.addedHotNs <= 0.05 * off.hotNs && on.addedColdNs <= 0.05 * off.coldNs,
  );
  // Round by round: both sides of a round ran one after the other, under the same machine weather.
  const calls = row(tables, 'sandbox-calls', 'sandbox');
  add(
    'Sandboxed plugin calls ≥ 0.95× unsandboxed, awaited one at a time and 64 in flight (median of the rounds)',
    calls &&
      `awaited ${calls.awaitedRatio.toFixed(2)}× (${calls.awaitedUs.toFixed(1)} µs a call); 64 in flight ${calls.perSecondRatio.toFixed(2)}× (${Math.round(calls.perSecond)}/s)`,
    calls && calls.awaitedRatio >= 0.95 && calls.perSecondRatio >= 0.95,
  );
}

/** Issue 24: the isolated plugin path at 64 in flight when the client writes one message per `write`. */
function perMessageGoals(tables, opts, add, vs) {
  const id = `stdio-${opts.inflight}-each`;
  const isolated = row(tables, id, 'plugin-isolated');
  for (const [name, other, factor] of [
    ['TS echo', row(tables, id, 'entropic'), 0.7],
    ['SDK v2', row(tables, id, 'sdk-v2'), 3.5],
  ]) {
    const r = isolated && other ? isolated.perSecond / other.perSecond : undefined;
    add(
      `C plugin, isolated, stdio ${opts.inflight} in flight, per-message client ≥ ${factor}× ${name}`,
      r && vs(r, isolated, other),
      r && r >= factor,
    );
  }
}

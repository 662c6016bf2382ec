// Issue 12's two scale targets checked against one run, and the run rendered as Markdown.
const int = (n) => Math.round(n).toLocaleString('en-US');
const us = (n) => `${n.toFixed(1)} µs`;
const load = (l) => l.map((x) => x.toFixed(1)).join(' / ');

/** The targets: --workers 2 ≥ 1.6× --workers 1 on the 1 ms tool; Redis store ≤ 2× in-memory server CPU. */
export function scaleGoals(result) {
  const goals = [];
  const w = result.workers;
  if (w) {
    const ratio = w.workers2.spin.perSecond / w.workers1.spin.perSecond;
    goals.push({
      target: '1 ms CPU tool, 2026-07-28 over HAProxy: --workers 2 ≥ 1.6× --workers 1',
      measured: `${ratio.toFixed(2)}× (${int(w.workers2.spin.perSecond)}/s vs ${int(w.workers1.spin.perSecond)}/s)`,
      ratio,
      verdict: ratio >= 1.6 ? 'met' : 'NOT met',
    });
  }
  const s = result.store;
  if (s) {
    const ratio = s.redis.serverUs / s.memory.serverUs;
    goals.push({
      target: `legacy stateful, ${result.options.storeClients} clients: Redis store server CPU per call ≤ 2× in-memory`,
      measured: `${ratio.toFixed(2)}× (${us(s.redis.serverUs)} vs ${us(s.memory.serverUs)})`,
      ratio,
      verdict: ratio <= 2 ? 'met' : 'NOT met',
    });
  }
  return goals;
}

function workersTable(w, clients) {
  const lines = [
    `| workload (2026-07-28, ${clients} clients, through HAProxy) | --workers 1 | --workers 2 | ratio |`,
    '| --- | ---: | ---: | ---: |',
  ];
  for (const [kind, label] of [
    ['spin', '1 ms CPU tool'],
    ['echo', 'echo'],
  ]) {
    const a = w.workers1[kind];
    const b = w.workers2[kind];
    lines.push(
      `| ${label}: calls/s (best round; rounds) | ${int(a.perSecond)} (${a.rounds.join(', ')}) | ` +
        `${int(b.perSecond)} (${b.rounds.join(', ')}) | ${(b.perSecond / a.perSecond).toFixed(2)}× |`,
      `| ${label}: CPU per call, serve (all processes) / HAProxy / redis-server / load generator | ` +
        `${us(a.serverUs)} / ${us(a.haproxyUs)} / ${us(a.redisUs)} / ${us(a.clientUs)} | ` +
        `${us(b.serverUs)} / ${us(b.haproxyUs)} / ${us(b.redisUs)} / ${us(b.clientUs)} | |`,
    );
  }
  return lines;
}

function storeTable(s, clients) {
  const lines = [
    `| legacy stateful echo, ${clients} clients, one serve process | in-memory store | Redis store | ratio |`,
    '| --- | ---: | ---: | ---: |',
    `| serve CPU per call (median round) | ${us(s.memory.serverUs)} | ${us(s.redis.serverUs)} | ${(s.redis.serverUs / s.memory.serverUs).toFixed(2)}× |`,
    `| redis-server CPU per call | – | ${us(s.redis.redisUs)} | |`,
    `| calls/s (best round; rounds) | ${int(s.memory.perSecond)} (${s.memory.rounds.join(', ')}) | ${int(s.redis.perSecond)} (${s.redis.rounds.join(', ')}) | ${(s.redis.perSecond / s.memory.perSecond).toFixed(2)}× |`,
  ];
  return lines;
}

export function renderScale(result) {
  const m = result.machine;
  const lines = [
    '# Scale workloads (issue 12)',
    '',
    `\`${result.command}\` on ${result.date}: ${m.cpus}× ${m.cpuModel}, Node ${m.node}, ${m.redis}, ${m.haproxy}; ` +
      `load average ${load(m.loadavg)} at the start and ${load(m.loadavgEnd)} at the end (1/5/15 min). ` +
      `${result.options.repeat} interleaved rounds.`,
    '',
  ];
  if (result.skipped) return [...lines, `Skipped: ${result.skipped}.`].join('\n');
  if (result.workers) lines.push(...workersTable(result.workers, result.options.clients), '');
  if (result.store) lines.push(...storeTable(result.store, result.options.storeClients), '');
  lines.push('| target (issue 12) | measured | verdict |', '| --- | --- | --- |');
  for (const g of result.targets) lines.push(`| ${g.target} | ${g.measured} | ${g.verdict} |`);
  return lines.join('\n');
}

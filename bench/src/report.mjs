// Render results as Markdown: one table per workload with ratios to the baselines, then the targets.
import { cpuPerCall, renderSummary } from './summary.mjs';
import { BASELINES } from './targets.mjs';

const MiB = 2 ** 20;
const int = (n) => Math.round(n).toLocaleString('en-US');
const mib = (bytes) => (bytes ? (bytes / MiB).toFixed(1) : '–');
const ratio = (a, b) => (a && b ? `${(a / b).toFixed(2)}×` : '–');

function throughputTable(table) {
  const find = (name) => table.rows.find((row) => row?.target === name && row.perSecond);
  const v1 = find(BASELINES.sdkV1)?.perSecond;
  const v2 = find(BASELINES.sdkV2)?.perSecond;
  const ceiling = find(BASELINES.ceiling)?.perSecond;
  const lines = [
    '| server | calls/s | p50 µs | p99 µs | × SDK v1 | × SDK v2 | × ceiling | peak RSS MiB | server CPU µs/call | CPU server / client | runs (calls/s) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const row of table.rows) {
    if (!row) continue;
    if (row.skipped || row.error) {
      lines.push(`| ${row.label} | ${why(row)} |${' – |'.repeat(9)}`);
      continue;
    }
    const rss = row.childRss ? `${mib(row.peakRss)} (+${mib(row.childRss)} host)` : mib(row.peakRss);
    const cpu = `${Math.round(row.serverCpu * 100)}% / ${Math.round(row.clientCpu * 100)}%`;
    lines.push(
      `| ${row.label} | ${int(row.perSecond)} | ${int(row.p50us)} | ${int(row.p99us)} | ${ratio(row.perSecond, v1)} | ` +
        `${ratio(row.perSecond, v2)} | ${ratio(row.perSecond, ceiling)} | ${rss} | ${cpuPerCall(row)} | ${cpu} | ${row.runs.join(', ')} |`,
    );
  }
  return lines;
}

function growthTable(table) {
  const lines = [
    '| server | RSS at checkpoints (MiB) | growth first → last | peak RSS MiB | seconds |',
    '| --- | --- | ---: | ---: | ---: |',
  ];
  for (const row of table.rows) {
    if (row.skipped || row.error) {
      lines.push(`| ${row.label} | ${why(row)} |${' – |'.repeat(3)}`);
      continue;
    }
    const points = row.points.map((p) => `${mib(p.rss)} @ ${int(p.calls)}`).join(' → ');
    lines.push(
      `| ${row.label} | ${points} | ${(row.growth * 100).toFixed(1)} % | ${mib(row.peakRss)} | ${row.seconds.toFixed(1)} |`,
    );
  }
  return lines;
}

function abiTable(table) {
  const lines = ['| command | median wall time ms | runs ms | exit code |', '| --- | ---: | --- | ---: |'];
  for (const row of table.rows) {
    if (row.skipped) lines.push(`| ${row.label} | ${why(row)} | – | – |`);
    else lines.push(`| ${row.label} | ${int(row.medianMs)} | ${row.runsMs.join(', ')} | ${row.exitCode} |`);
  }
  return lines;
}

function sandboxStartTable(table) {
  const ms = (n) => n.toFixed(2);
  const lines = [
    '| host | median ms | p90 ms | added, ms | host CPU ms (median) | added CPU, ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of table.rows) {
    if (r.skipped) lines.push(`| ${r.label} | ${why(r)} | – | – | – | – |`);
    else
      lines.push(
        `| ${r.label} | ${ms(r.medianMs)} | ${ms(r.p90Ms)} | ${ms(r.addedMs)} | ${ms(r.cpuMs)} | ${ms(r.addedCpuMs)} |`,
      );
  }
  return lines;
}

function sandboxSyscallTable(table) {
  const ns = (n) => n.toFixed(1);
  const lines = [
    '| host | getppid ns (every row checked) | added ns | read(-1) ns (let through first) | added ns |',
    '| --- | ---: | ---: | ---: | ---: |',
  ];
  for (const r of table.rows)
    lines.push(
      `| ${r.label} | ${ns(r.coldNs)} | ${ns(r.addedColdNs)} | ${ns(r.hotNs)} | ${ns(r.addedHotNs)} |`,
    );
  return lines;
}

function sandboxCallsTable(table) {
  const lines = [
    '| plugin | µs per call, awaited | × off (round by round) | calls/s, 64 in flight | × off (round by round) | host CPU µs/call | rounds (calls/s at 64) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const r of table.rows)
    lines.push(
      `| ${r.label} | ${r.awaitedUs.toFixed(1)} | ${r.awaitedRatio.toFixed(2)}× | ${int(r.perSecond)} | ${r.perSecondRatio.toFixed(2)}× | ${r.hostCpuPerCallUs.toFixed(2)} | ${r.rounds.join(', ')} |`,
    );
  return lines;
}

function telemetryCostTable(table) {
  const lines = [
    '| measurement | API only vs today (calls/s) | API only vs today (CPU µs/call) | SDK on: added CPU µs/call | SDK on vs API only (calls/s) | serve + plugin, OTEL_* set: added CPU µs/call | same, calls/s |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of table.rows) {
    lines.push(
      `| ${r.measurement} | ${r.apiVsToday} | ${r.cpuApiVsToday} | ${r.sdkCost} | ${r.sdkRatio} | ${r.pluginSdkCost} | ${r.pluginSdkRatio} |`,
    );
  }
  return lines;
}

function load(avg) {
  return avg ? avg.map((n) => n.toFixed(2)).join(' ') : '–';
}

function why(row) {
  return row.skipped ? `skipped: ${row.skipped}` : `failed: ${oneLine(row.error)}`;
}

function oneLine(text) {
  return String(text).replace(/\s+/g, ' ').replace(/\|/g, '/').slice(0, 200);
}

export function renderMarkdown(result) {
  const lines = [
    `# entropic-mcp benchmark${result.options.quick ? ' (quick smoke run: figures are not meaningful)' : ''}`,
    '',
    `- Command: \`${result.command}\``,
    `- Date: ${result.date}`,
    `- Machine: ${result.machine.cpus}× ${result.machine.cpuModel}, ${mib(result.machine.memory)} MiB RAM, ` +
      `Node ${result.machine.node}; load average (1, 5, 15 min) at start ${load(result.machine.loadavg)}, at end ` +
      `${load(result.machine.loadavgEnd)}`,
    `- Calls: stdio ${int(result.options.calls)} measured after ${int(result.options.warmup)} warm-up, HTTP ` +
      `${int(result.options.httpCalls)} after ${int(result.options.httpWarmup)}; best of ${result.options.repeat} ` +
      'rounds (each round visits every server in turn); one load generator (bench/src) for all.',
    '- Ratios are of calls/s. "ceiling" is the bare Node loop (stdio) or bare node:http (HTTP) measured in the same run.',
    "- Server CPU µs/call: CPU time of all the server process's threads (scheduler run time) per call in the best " +
      'round; it moves less than calls/s when other work shares the machine. CPU %: share of one core used by the ' +
      'server process / the load generator during that round.',
    '',
  ];
  lines.push('## Summary', '', renderSummary(result), '');
  for (const table of result.tables) {
    lines.push(`## ${table.title}`, '');
    if (table.kind === 'growth') lines.push(...growthTable(table));
    else if (table.kind === 'abi') lines.push(...abiTable(table));
    else if (table.kind === 'telemetry-cost') lines.push(...telemetryCostTable(table));
    else if (table.kind === 'sandbox-start') lines.push(...sandboxStartTable(table));
    else if (table.kind === 'sandbox-syscall') lines.push(...sandboxSyscallTable(table));
    else if (table.kind === 'sandbox-calls') lines.push(...sandboxCallsTable(table));
    else lines.push(...throughputTable(table));
    lines.push('');
  }
  if (result.targets.length > 0) {
    lines.push(
      '## Targets (issues 6, 10, 11 and 24)',
      '',
      '| target | measured | verdict |',
      '| --- | --- | --- |',
    );
    for (const t of result.targets) lines.push(`| ${t.target} | ${t.measured} | ${t.verdict} |`);
    lines.push('');
  }
  return lines.join('\n');
}

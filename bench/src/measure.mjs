// One timed run: throughput, latency percentiles and the CPU both sides used while it lasted.
import { childrenCpuSecondsOf, cpuSecondsOf } from './proc.mjs';
import { summarise } from './stats.mjs';

/**
 * Run `fn` (which resolves to {elapsedMs, latencies}) and summarise it with CPU shares: the server process's
 * own, its child processes' (plugin hosts) per call, and the load generator's.
 */
export async function measure(serverPid, fn) {
  const client0 = process.cpuUsage();
  const server0 = cpuSecondsOf(serverPid);
  const host0 = childrenCpuSecondsOf(serverPid);
  const run = await fn();
  const client = process.cpuUsage(client0);
  const serverSeconds = cpuSecondsOf(serverPid) - server0;
  // The processes the server started (isolated plugin hosts): their CPU is shown beside the server's.
  const hostSeconds = childrenCpuSecondsOf(serverPid) - host0;
  return {
    ...summarise(run),
    serverCpu: (serverSeconds * 1000) / run.elapsedMs,
    serverCpuPerCallUs: (serverSeconds * 1e6) / run.latencies.length,
    hostCpuPerCallUs: (hostSeconds * 1e6) / run.latencies.length,
    clientCpu: (client.user + client.system) / 1000 / run.elapsedMs,
  };
}

/** The best of repeated runs (highest throughput), keeping every run's throughput beside it. */
export function best(runs) {
  let top = runs[0];
  for (const run of runs) if (run.perSecond > top.perSecond) top = run;
  return { ...top, runs: runs.map((run) => Math.round(run.perSecond)) };
}

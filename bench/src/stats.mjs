// Small statistics over latency samples (microseconds).

export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

/** Throughput and latency summary of one run. */
export function summarise({ elapsedMs, latencies }) {
  const sorted = Float64Array.from(latencies).sort();
  return {
    calls: latencies.length,
    perSecond: (latencies.length / elapsedMs) * 1000,
    p50us: percentile(sorted, 50),
    p99us: percentile(sorted, 99),
  };
}

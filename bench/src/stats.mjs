// Small statistics over latency samples (microseconds), and the helpers of the interleaved comparisons.

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

/** The median of a list of numbers. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 === 1 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/** The median of field `key` over `runs`. */
export function medianOf(runs, key) {
  return median(runs.map((run) => run[key]));
}

/** A copy of `list` in a random order (Fisher-Yates), so that each round visits the processes differently. */
export function shuffled(list) {
  const order = [...list];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

// stdio echo tools/call: 1 in flight (latency) and 64 in flight (throughput) with both client patterns (the
// batching client and the per-message one, CLIENTS in stdio-client.mjs), peak RSS per server. All servers stay
// up for the whole workload and the repetitions go round them in turn, each round running every measurement
// of a server back to back, so a burst of load from elsewhere on the machine spreads over every target
// instead of landing on one. `era` 'modern' sends the 2026-07-28 envelope on every call instead of an
// initialize handshake (tables stdio-modern-*).
import { best, measure } from '../measure.mjs';
import { CLIENTS, StdioPeer } from '../stdio-client.mjs';

/** The table id of a stdio measurement: `stdio-1`, `stdio-64` (batching client), `stdio-64-each`. */
export function stdioTableId(era, inflight, client = 'batch') {
  const prefix = era === 'modern' ? 'stdio-modern' : 'stdio';
  return `${prefix}-${inflight}${client === 'each' ? '-each' : ''}`;
}

export async function stdioWorkload(targets, opts, log, era = 'legacy') {
  const heading = era === 'modern' ? 'stdio echo tools/call (2026-07-28)' : 'stdio echo tools/call';
  const live = [];
  const rows = new Map();
  for (const target of targets) {
    const skipped = target.skip?.();
    if (skipped) {
      rows.set(target.name, { target: target.name, label: target.label, skipped });
      log(`  ${target.name}: skipped (${skipped})`);
      continue;
    }
    const peer = new StdioPeer(target, era);
    try {
      await peer.initialize();
      await peer.run(opts.warmup, 1);
      await peer.run(opts.warmup, opts.inflight, 'batch');
      await peer.run(opts.warmup, opts.inflight, 'each');
      live.push({ target, peer, one: [], batch: [], each: [] });
    } catch (error) {
      rows.set(target.name, { target: target.name, label: target.label, error: error.message });
      log(`  ${target.name}: failed to start (${error.message})`);
      await peer.close();
    }
  }
  for (let rep = 0; rep < opts.repeat; rep++) {
    for (const entry of live) {
      if (entry.error) continue;
      try {
        const { peer } = entry;
        entry.one.push(await measure(peer.pid, () => peer.run(opts.calls, 1)));
        entry.batch.push(await measure(peer.pid, () => peer.run(opts.calls, opts.inflight, 'batch')));
        entry.each.push(await measure(peer.pid, () => peer.run(opts.calls, opts.inflight, 'each')));
        const rate = (list) => Math.round(list.at(-1).perSecond);
        log(
          `  ${entry.target.name} #${rep + 1}: ${rate(entry.one)}/s at 1, ${rate(entry.batch)}/s at ${opts.inflight} ` +
            `batching, ${rate(entry.each)}/s at ${opts.inflight} per message`,
        );
      } catch (error) {
        entry.error = error.message;
        log(`  ${entry.target.name}: failed (${error.message})`);
      }
    }
  }
  const kinds = ['one', 'batch', 'each'];
  const out = { one: [], batch: [], each: [] };
  for (const entry of live) {
    const memory = entry.peer.memory('VmHWM');
    const base = {
      target: entry.target.name,
      label: entry.target.label,
      peakRss: memory.self,
      childRss: memory.children,
    };
    for (const kind of kinds)
      out[kind].push(entry.error ? { ...base, error: entry.error } : { ...base, ...best(entry[kind]) });
    await entry.peer.close();
  }
  const order = (list) => targets.map((t) => rows.get(t.name) ?? list.find((row) => row.target === t.name));
  const many = `${heading}, ${opts.inflight} in flight`;
  return [
    {
      id: stdioTableId(era, 1),
      title: `${heading}, 1 in flight (one message per write with either client)`,
      rows: order(out.one),
    },
    { id: stdioTableId(era, opts.inflight), title: `${many}, ${CLIENTS.batch}`, rows: order(out.batch) },
    {
      id: stdioTableId(era, opts.inflight, 'each'),
      title: `${many}, ${CLIENTS.each}`,
      rows: order(out.each),
    },
  ];
}

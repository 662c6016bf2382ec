// stdio echo tools/call: 1 in flight (latency) and 64 in flight (throughput), peak RSS per server.
// All servers stay up for the whole workload and the repetitions go round them in turn, so a burst of
// load from elsewhere on the machine spreads over every target instead of landing on one. `era` 'modern'
// sends the 2026-07-28 envelope on every call instead of an initialize handshake (tables stdio-modern-*).
import { best, measure } from '../measure.mjs';
import { StdioPeer } from '../stdio-client.mjs';

export async function stdioWorkload(targets, opts, log, era = 'legacy') {
  const prefix = era === 'modern' ? 'stdio-modern' : 'stdio';
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
      await peer.run(opts.warmup, opts.inflight);
      live.push({ target, peer, one: [], many: [] });
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
        entry.one.push(await measure(entry.peer.pid, () => entry.peer.run(opts.calls, 1)));
        entry.many.push(await measure(entry.peer.pid, () => entry.peer.run(opts.calls, opts.inflight)));
        const last = entry.many.at(-1);
        log(
          `  ${entry.target.name} #${rep + 1}: ${Math.round(entry.one.at(-1).perSecond)}/s at 1, ${Math.round(last.perSecond)}/s at ${opts.inflight}`,
        );
      } catch (error) {
        entry.error = error.message;
        log(`  ${entry.target.name}: failed (${error.message})`);
      }
    }
  }
  const one = [];
  const many = [];
  for (const entry of live) {
    const memory = entry.peer.memory('VmHWM');
    const base = {
      target: entry.target.name,
      label: entry.target.label,
      peakRss: memory.self,
      childRss: memory.children,
    };
    if (entry.error) {
      one.push({ ...base, error: entry.error });
      many.push({ ...base, error: entry.error });
    } else {
      one.push({ ...base, ...best(entry.one) });
      many.push({ ...base, ...best(entry.many) });
    }
    await entry.peer.close();
  }
  const order = (list) => targets.map((t) => rows.get(t.name) ?? list.find((row) => row.target === t.name));
  return [
    { id: `${prefix}-1`, title: `${heading}, 1 in flight`, rows: order(one) },
    {
      id: `${prefix}-${opts.inflight}`,
      title: `${heading}, ${opts.inflight} in flight`,
      rows: order(many),
    },
  ];
}

// Streamable HTTP echo tools/call at 1 and 64 concurrent clients, per mode (stateful SSE, JSON response,
// stateless; and the 2026-07-28 era, `MODERN_MODE`, run by workloads/modern.mjs), peak RSS per server. Servers of one mode stay up together; repetitions go round them in turn.
import { openClients, runHttp } from '../http-client.mjs';
import { startHttpServer } from '../http-server.mjs';
import { best, measure } from '../measure.mjs';

export const MODES = [
  { mode: 'sse', title: 'stateful, SSE responses' },
  { mode: 'json', title: 'stateful, JSON responses' },
  { mode: 'stateless', title: 'stateless, SSE responses' },
];

export const MODERN_MODE = { mode: 'modern', title: '2026-07-28, no session', era: 'modern' };

async function startTarget(target, mode, opts) {
  const server = await startHttpServer(target, mode);
  try {
    const era = mode === MODERN_MODE.mode ? 'modern' : 'legacy';
    const single = await openClients(server.url, target, 1, era);
    const crowd = await openClients(server.url, target, opts.clients, era);
    await runHttp(single.clients, opts.warmup);
    await runHttp(crowd.clients, opts.warmup);
    return { target, server, single, crowd, one: [], many: [] };
  } catch (error) {
    await server.close();
    throw error;
  }
}

export async function modeWorkload(targets, { mode, title }, opts, log) {
  const live = [];
  const failed = new Map();
  for (const target of targets) {
    const skipped = target.skip?.();
    if (skipped) {
      failed.set(target.name, { target: target.name, label: target.label, skipped });
      continue;
    }
    try {
      live.push(await startTarget(target, mode, opts));
    } catch (error) {
      failed.set(target.name, { target: target.name, label: target.label, error: error.message });
      log(`  ${target.name} (${mode}): failed to start (${error.message})`);
    }
  }
  for (let rep = 0; rep < opts.repeat; rep++) {
    for (const entry of live) {
      if (entry.error) continue;
      try {
        const pid = entry.server.pid;
        entry.one.push(await measure(pid, () => runHttp(entry.single.clients, opts.calls)));
        entry.many.push(await measure(pid, () => runHttp(entry.crowd.clients, opts.calls)));
        log(
          `  ${entry.target.name} (${mode}) #${rep + 1}: ${Math.round(entry.one.at(-1).perSecond)}/s at 1, ` +
            `${Math.round(entry.many.at(-1).perSecond)}/s at ${opts.clients}`,
        );
      } catch (error) {
        entry.error = `${error.message} ${entry.server.stderr().slice(-400)}`;
        log(`  ${entry.target.name} (${mode}): failed (${entry.error})`);
      }
    }
  }
  const one = [];
  const many = [];
  for (const entry of live) {
    const memory = entry.server.memory('VmHWM');
    const base = {
      target: entry.target.name,
      label: entry.target.label,
      peakRss: memory.self,
      childRss: memory.children,
    };
    one.push(entry.error ? { ...base, error: entry.error } : { ...base, ...best(entry.one) });
    many.push(entry.error ? { ...base, error: entry.error } : { ...base, ...best(entry.many) });
    entry.single.close();
    entry.crowd.close();
    await entry.server.close();
  }
  const order = (list) => targets.map((t) => failed.get(t.name) ?? list.find((row) => row.target === t.name));
  return [
    { id: `http-${mode}-1`, title: `Streamable HTTP (${title}), 1 client`, rows: order(one) },
    {
      id: `http-${mode}-${opts.clients}`,
      title: `Streamable HTTP (${title}), ${opts.clients} concurrent clients`,
      rows: order(many),
    },
  ];
}

export async function httpWorkload(targets, opts, log) {
  const tables = [];
  for (const mode of MODES) {
    log(` mode ${mode.mode}`);
    const serving = targets.filter((t) => t.modes === undefined || t.modes.includes(mode.mode));
    tables.push(...(await modeWorkload(serving, mode, opts, log)));
  }
  return tables;
}

// Growth check: resident memory at checkpoints from 100k calls to 1M (stdio; HTTP stops at 300k unless
// --growth-http-full). A leak grows at every checkpoint; V8 sizing its heap shows as a step that then
// stays flat. The calls run 64 in flight over stdio and from 64 clients over HTTP.
import { openClients, runHttp } from '../http-client.mjs';
import { startHttpServer } from '../http-server.mjs';
import { StdioPeer } from '../stdio-client.mjs';

const CHUNK = 50_000;

async function runTo(done, until, step) {
  while (done < until) {
    const n = Math.min(CHUNK, until - done);
    await step(n);
    done += n;
  }
  return done;
}

async function track(checkpoints, memoryOf, step) {
  const points = [];
  let done = 0;
  const started = performance.now();
  for (const at of checkpoints) {
    done = await runTo(done, at, step);
    points.push({ calls: at, rss: memoryOf('VmRSS').self });
  }
  const first = points[0].rss;
  const last = points.at(-1).rss;
  return {
    points,
    growth: (last - first) / first,
    peakRss: memoryOf('VmHWM').self,
    seconds: (performance.now() - started) / 1000,
  };
}

async function stdioGrowth(target, checkpoints, opts) {
  const peer = new StdioPeer(target);
  try {
    await peer.initialize();
    return await track(
      checkpoints,
      (f) => peer.memory(f),
      (n) => peer.run(n, opts.inflight),
    );
  } finally {
    await peer.close();
  }
}

async function httpGrowth(target, checkpoints, opts) {
  const server = await startHttpServer(target, 'sse');
  try {
    const crowd = await openClients(server.url, target, opts.clients);
    try {
      return await track(
        checkpoints,
        (f) => server.memory(f),
        (n) => runHttp(crowd.clients, n),
      );
    } finally {
      crowd.close();
    }
  } finally {
    await server.close();
  }
}

async function row(kind, target, checkpoints, opts, log) {
  const base = { target: target.name, label: `${target.label}, ${kind}` };
  const skipped = target.skip?.();
  if (skipped) return { ...base, skipped };
  try {
    const result =
      kind === 'stdio'
        ? await stdioGrowth(target, checkpoints, opts)
        : await httpGrowth(target, checkpoints, opts);
    log(
      `  ${target.name} ${kind}: ${result.points.map((p) => `${(p.rss / 2 ** 20).toFixed(1)} MiB`).join(' → ')}`,
    );
    return { ...base, ...result };
  } catch (error) {
    log(`  ${target.name} ${kind}: failed (${error.message})`);
    return { ...base, error: error.message };
  }
}

export async function growthWorkload({ stdio, http }, opts, log) {
  const rows = [];
  for (const target of stdio) rows.push(await row('stdio', target, opts.growthStdio, opts, log));
  for (const target of http) rows.push(await row('HTTP SSE', target, opts.growthHttp, opts, log));
  return [{ id: 'growth', title: 'RSS growth under sustained load', kind: 'growth', rows }];
}

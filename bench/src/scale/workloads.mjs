// The two scale workloads of issue 12. Workers: `serve --redis --workers 1` and `--workers 2`, each behind its
// own HAProxy, driven in the 2026-07-28 era with a 1 ms CPU tool and with echo (by the lean raw-client.mjs).
// Store: legacy stateful echo sessions at 64 clients against `serve` with the in-memory store and with the
// Redis store, as server CPU per call. Rounds alternate between the servers so that other work on the
// machine lands on both.
import os from 'node:os';
import { openClients, runHttp } from '../http-client.mjs';
import { cpuSecondsOf, treeCpuSecondsOf } from '../proc.mjs';
import { openRawClients } from './raw-client.mjs';

export const SPIN = { tool: 'scale.spin', arguments: {}, expect: 'true' };
export const ECHO = { tool: 'scale.echo', arguments: { text: 'hello' }, expect: 'hello' };

/** Run `calls` calls on `clients`, measuring the CPU of the server tree, redis-server and HAProxy. */
async function measured(clients, calls, pids) {
  const cpu = () => ({
    server: treeCpuSecondsOf(pids.server),
    redis: pids.redis ? cpuSecondsOf(pids.redis) : 0,
    haproxy: pids.haproxy ? cpuSecondsOf(pids.haproxy) : 0,
    client: process.cpuUsage(),
  });
  const before = cpu();
  const { elapsedMs } = await runHttp(clients, calls);
  const after = cpu();
  const perCall = (key) => ((after[key] - before[key]) * 1e6) / calls;
  const client = process.cpuUsage(before.client);
  return {
    perSecond: calls / (elapsedMs / 1000),
    serverUs: perCall('server'),
    redisUs: perCall('redis'),
    haproxyUs: perCall('haproxy'),
    clientUs: (client.user + client.system) / calls,
  };
}

/** Of several rounds: calls/s the best, CPU figures the median (each round is kept too). */
function summarise(rounds) {
  const median = (key) => {
    const sorted = rounds.map((r) => r[key]).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
  };
  return {
    perSecond: Math.max(...rounds.map((r) => r.perSecond)),
    serverUs: median('serverUs'),
    redisUs: median('redisUs'),
    haproxyUs: median('haproxyUs'),
    clientUs: median('clientUs'),
    rounds: rounds.map((r) => Math.round(r.perSecond)),
    loadavg: os.loadavg(),
  };
}

/**
 * Every call reaches serve from HAProxy's one address, each with its own stream and connection in use:
 * past serve's per-client defaults (256 of each) only when --clients asks for more, and then turned off.
 */
const perClientLimits = (clients) =>
  clients > 256 ? ['--max-streams-per-client', '0', '--max-connections-per-client', '0'] : [];

export async function workersWorkload(procs, redis, opts, log) {
  const nodes = {};
  for (const workers of [1, 2]) {
    const args = ['--redis', redis.url, '--workers', String(workers), ...perClientLimits(opts.clients)];
    const serve = await procs.serve(args);
    const lb = await procs.haproxy([serve.port]);
    const pids = { server: serve.pid, redis: redis.pid, haproxy: lb.pid };
    const spin = await openRawClients(lb.port, SPIN, opts.clients);
    const echo = await openRawClients(lb.port, ECHO, opts.clients);
    await runHttp(spin.clients, opts.spinWarmup);
    await runHttp(echo.clients, opts.echoWarmup);
    nodes[workers] = { serve, lb, pids, spin, echo, rounds: { spin: [], echo: [] } };
  }
  for (let round = 0; round < opts.repeat; round++) {
    for (const kind of ['spin', 'echo']) {
      for (const workers of [1, 2]) {
        const node = nodes[workers];
        const calls = kind === 'spin' ? opts.spinCalls : opts.echoCalls;
        const r = await measured(node[kind].clients, calls, node.pids);
        node.rounds[kind].push(r);
        log(
          `  round ${round + 1} ${kind} --workers ${workers}: ${Math.round(r.perSecond)} calls/s, ` +
            `server CPU ${r.serverUs.toFixed(0)} µs/call`,
        );
      }
    }
  }
  const out = {};
  for (const workers of [1, 2]) {
    const node = nodes[workers];
    out[`workers${workers}`] = {
      spin: summarise(node.rounds.spin),
      echo: summarise(node.rounds.echo),
    };
    node.spin.close();
    node.echo.close();
    await procs.stop(node.lb.child);
    await procs.stop(node.serve.child);
  }
  return out;
}

export async function storeWorkload(procs, redis, opts, log) {
  const stores = { memory: [], redis: ['--redis', redis.url] };
  const nodes = {};
  for (const [name, args] of Object.entries(stores)) {
    const serve = await procs.serve(args);
    const clients = await openClients(`http://127.0.0.1:${serve.port}/mcp`, ECHO, opts.storeClients);
    await runHttp(clients.clients, opts.echoWarmup);
    nodes[name] = { serve, clients, rounds: [] };
  }
  for (let round = 0; round < opts.repeat; round++) {
    for (const name of Object.keys(stores)) {
      const node = nodes[name];
      const pids = { server: node.serve.pid, redis: name === 'redis' ? redis.pid : undefined };
      const r = await measured(node.clients.clients, opts.storeCalls, pids);
      node.rounds.push(r);
      log(
        `  round ${round + 1} legacy echo, ${name} store: ${Math.round(r.perSecond)} calls/s, ` +
          `server CPU ${r.serverUs.toFixed(1)} µs/call, redis-server ${r.redisUs.toFixed(1)} µs/call`,
      );
    }
  }
  const out = {};
  for (const name of Object.keys(stores)) {
    out[name] = summarise(nodes[name].rounds);
    nodes[name].clients.close();
    await procs.stop(nodes[name].serve.child);
  }
  return out;
}

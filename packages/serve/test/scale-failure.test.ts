/**
 * Scale-out failures through real parts (redis-server, HAProxy round robin, three `serve --redis`
 * processes): the process holding a legacy GET stream is SIGKILLed and the client resumes with
 * `Last-Event-ID` on another; Redis is stopped and restarted under load; hostile session ids and
 * `Last-Event-ID` values reach nothing of another session.
 */

import { execFileSync } from 'node:child_process';
import { type ScaleCluster, startScaleCluster } from '@entropic-mcp/test-kit/cluster';
import {
  callTool,
  openLegacySession,
  openSse,
  rawRequest,
  type SseReader,
} from '@entropic-mcp/test-kit/raw-mcp';
import { quietPeriod, waitForValue } from '@entropic-mcp/test-kit/wait';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive, type HttpServer, textOf, waitFor } from './support/serve-helpers.js';

let cluster: ScaleCluster;
let nextId = 1;

beforeAll(async () => {
  cluster = await startScaleCluster(3);
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

/** The `n` of each `notifications/message` the scale tools broadcast, in arrival order. */
function numbers(reader: SseReader): number[] {
  return reader.events
    .filter((e) => e.data.includes('"logger":"scale"'))
    .map((e) => (JSON.parse(e.data) as { params: { data: { n: number } } }).params.data.n);
}

/** Broadcast `n` from whichever process HAProxy picks; wait until the stream has it. */
async function broadcast(session: string, n: number, reader: () => SseReader): Promise<string> {
  const answer = await callTool(cluster.endpoint, session, nextId++, 'scale.broadcast', {
    from: n,
    count: 1,
  });
  expect(answer.status).toBe(200);
  await waitFor(() => numbers(reader()).includes(n), 30_000, `event ${n} on the GET stream`);
  return String(answer.headers['x-served-by']);
}

/** Every key in the test Redis (redis-cli comes with Debian's redis-server). */
function redisKeys(): string[] {
  const out = execFileSync('redis-cli', ['-p', String(cluster.redis.port), '--scan'], { encoding: 'utf8' });
  return out.split('\n').filter(Boolean);
}

/** Call scale.pid until every live process has served (and so holds a copy of) the session. */
async function spread(session: string, live: number): Promise<void> {
  const seen = new Set<string>();
  for (let i = 0; i < 30 && seen.size < live; i++) {
    const answer = await callTool(cluster.endpoint, session, nextId++, 'scale.pid');
    expect(answer.status).toBe(200);
    seen.add(String(answer.headers['x-served-by']));
  }
  expect(seen.size).toBe(live);
}

describe('serve --redis behind HAProxy: failures', () => {
  it('hostile session ids and Last-Event-ID values read nothing of another session and name no key', async () => {
    const victim = await openLegacySession(cluster.endpoint);
    await spread(victim, 3);
    const stream = await openSse(cluster.endpoint, 'GET', victim);
    for (let n = 0; n < 3; n++) await broadcast(victim, n, () => stream);
    stream.close();
    const ids = stream.events.map((e) => e.id).filter((id): id is string => id !== undefined);
    const [first, last] = [ids[0] as string, ids.at(-1) as string];
    const attacker = await openLegacySession(cluster.endpoint);
    const before = redisKeys();
    const leaked = (text: string) => text.includes('"logger":"scale"');

    const streamOf = first.slice(0, first.lastIndexOf('.'));
    const hostileEventIds = [
      first,
      `${streamOf}.0`,
      `${victim}.x-g0.0`,
      '*',
      `emcp:ev:${streamOf}.0`,
      `${first}\t`,
    ];
    for (const lastEventId of [...hostileEventIds, `../${last}`, 'x'.repeat(500), '0-0', '.1']) {
      const reader = await openSse(cluster.endpoint, 'GET', attacker, { lastEventId });
      // Refused, the stream closes; else what it would leak has 300 ms to arrive.
      await Promise.race([reader.closed, quietPeriod(300)]);
      reader.close();
      const seen = reader.events.map((e) => e.data).join('\n');
      expect({ lastEventId, status: reader.status, leaked: leaked(seen) }).toEqual({
        lastEventId,
        status: expect.toBeOneOf([200, 409]),
        leaked: false,
      });
    }
    const hostileSessions = [
      '*',
      `${victim}*`,
      `emcp:sess:${victim}`,
      `{${victim}}`,
      `${victim}.`,
      streamOf,
      'x'.repeat(300),
    ];
    for (const session of hostileSessions) {
      const reader = await openSse(cluster.endpoint, 'GET', session, { lastEventId: first });
      await reader.closed;
      const call = await callTool(cluster.endpoint, session, nextId++, 'scale.pid');
      expect({ session, get: reader.status, post: call.status }).toEqual({ session, get: 404, post: 404 });
      expect(leaked(reader.events.map((e) => e.data).join('\n'))).toBe(false);
    }
    // The victim itself, resuming from the same id, does get its events back.
    const own = await openSse(cluster.endpoint, 'GET', victim, { lastEventId: first });
    await waitFor(() => leaked(own.events.map((e) => e.data).join('\n')), 20_000, 'the victim replay');
    own.close();
    // The attacker's own GET streams made keys of its session; nothing else was made.
    const made = redisKeys().filter((k) => !before.includes(k) && !k.includes(attacker));
    expect(made).toEqual([]);
  });

  it('resumes a GET stream on another process after its holder is SIGKILLed, each event once, in order', async () => {
    const session = await openLegacySession(cluster.endpoint);
    await spread(session, 3);
    let stream = await openSse(cluster.endpoint, 'GET', session);
    expect(stream.status).toBe(200);
    const holder = String(stream.headers['x-served-by']);
    const from = new Set<string>();
    for (let n = 0; n < 12; n++) from.add(await broadcast(session, n, () => stream));
    from.delete(holder);
    expect(from.size).toBe(2); // events raised on the other two processes crossed to the holder

    // The client got 0..11, then lost what followed 5 (its buffer died with the connection).
    const first = stream.events.filter((e) => e.id !== undefined);
    const kept = first.slice(0, first.findIndex((e) => e.data.includes('"n":5')) + 1);
    const lastEventId = kept.at(-1)?.id as string;
    const victim = cluster.node(holder);
    await cluster.kill(cluster.nodes.indexOf(victim));
    await stream.closed;

    stream = await openSse(cluster.endpoint, 'GET', session, { lastEventId });
    expect(stream.status).toBe(200);
    const taker = cluster.node(String(stream.headers['x-served-by']));
    expect(taker).not.toBe(victim);
    expect(alive(taker.child.pid as number)).toBe(true);
    await waitFor(() => numbers(stream).includes(11), 30_000, 'the replay up to event 11');
    for (let n = 12; n < 20; n++) await broadcast(session, n, () => stream);

    const delivered = [...numbers({ ...stream, events: kept }), ...numbers(stream)];
    expect(delivered).toEqual(Array.from({ length: 20 }, (_, n) => n));
    const ids = [...kept, ...stream.events].map((e) => e.id).filter((id) => id !== undefined);
    expect(new Set(ids).size).toBe(ids.length);
    stream.close();
  });

  it('Redis stopped mid-run: shared-state requests answer 503/-32000, modern calls go on, then service resumes', async () => {
    const held = await openLegacySession(cluster.endpoint);
    await spread(held, 2);
    // A session opened directly on one process: only that one holds a copy.
    const owner = cluster.nodes.find((n) => n.child.exitCode === null) as HttpServer;
    const lonely = await openLegacySession(owner.url);
    const other = cluster.nodes.find((n) => n !== owner && n.child.exitCode === null) as HttpServer;
    /**
     * Status of a call in `lonely` on each process, asked directly: through HAProxy, a 503 of the other
     * is sent again to the owner (the guide's `retry-on 503`), and the client sees the owner's answer.
     */
    const lonelyStatuses = async (): Promise<Record<string, number>> => ({
      owner: (await callTool(owner.url, lonely, nextId++, 'scale.pid')).status,
      other: (await callTool(other.url, lonely, nextId++, 'scale.pid')).status,
    });
    const modern = new Client(
      { name: 'scale-outage', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await modern.connect(new StreamableHTTPClientTransport(new URL(cluster.endpoint)));
    try {
      await cluster.redis.kill();
      const unavailable = expect.objectContaining({
        error: expect.objectContaining({
          code: -32000,
          message: expect.stringMatching(/^Service Unavailable: shared session state is unreachable \(.+\)$/),
        }),
      });
      // A new session, a session no process holds (or not this one), and DELETE all need Redis.
      for (let i = 0; i < 2; i++) {
        const init = await rawRequest(cluster.endpoint, 'POST', INIT);
        expect({ status: init.status, body: JSON.parse(init.body) }).toEqual({
          status: 503,
          body: unavailable,
        });
      }
      const stranger = await callTool(cluster.endpoint, crypto.randomUUID(), nextId++, 'scale.pid');
      expect({ status: stranger.status, body: stranger.message }).toEqual({ status: 503, body: unavailable });
      expect(await lonelyStatuses()).toEqual({ owner: 200, other: 503 });
      const del = await rawRequest(cluster.endpoint, 'DELETE', undefined, held);
      expect({ status: del.status, body: JSON.parse(del.body) }).toEqual({ status: 503, body: unavailable });

      // 2026-07-28 calls need no shared state; a session both processes hold keeps working.
      const served = new Set<string>();
      for (let i = 0; i < 4; i++)
        served.add(
          textOf(await modern.callTool({ name: 'scale.pid', arguments: {} })).split(':')[0] as string,
        );
      expect(served.size).toBe(2);
      await spread(held, 2);

      // Redis comes back empty (no persistence): the processes reconnect by themselves.
      await cluster.redis.restart();
      const fresh = await waitForValue(
        () => openLegacySession(cluster.endpoint).catch(() => undefined),
        'a new session within 30 s of Redis restarting',
        30_000,
      );
      await spread(fresh, 2);
      // The registry came back empty: the copy lives on where it was, elsewhere the session is gone.
      expect(await lonelyStatuses()).toEqual({ owner: 200, other: 404 });
      expect((await callTool(cluster.endpoint, held, nextId++, 'scale.pid')).status).toBe(200);
      expect(textOf(await modern.callTool({ name: 'scale.pid', arguments: {} }))).toMatch(/^\d+:/);
      const ended = await rawRequest(cluster.endpoint, 'DELETE', undefined, fresh);
      expect(ended.status).toBe(200);
    } finally {
      await modern.close();
    }
  });
});

const INIT = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

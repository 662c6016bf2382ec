/**
 * Making a real redis-server refuse writes while it keeps answering reads, the two ways it happens in
 * production: out of memory (`maxmemory` reached with `noeviction`: writes answer `OOM command not
 * allowed …`) and a read-only replica behind the address (writes answer `READONLY …`), as after a
 * failover that left the address on the old master turned replica. For the replica, a second
 * redis-server first takes a copy of the data and becomes the master, so the replica keeps what it held.
 */

import { type RedisProcess, startRedis } from '@entropic-mcp/test-kit/redis-server';
import { Redis } from 'ioredis';
import { waitFor } from './wait.js';

export type Refusal = 'OOM' | 'READONLY';

/** What a refused write's error names, by refusal. */
export const REFUSAL_TEXT: Record<Refusal, RegExp> = {
  OOM: /OOM command not allowed/,
  READONLY: /READONLY You can't write against a read only replica/,
};

export interface WriteRefusal {
  readonly kind: Refusal;
  /** Writes are taken again (the replica is a master again; memory is unlimited again). */
  end(): Promise<void>;
}

async function admin(redis: RedisProcess): Promise<Redis> {
  const client = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  client.on('error', () => {});
  await client.connect();
  return client;
}

const until = (check: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> =>
  waitFor(check, what, ms);

/** From now on `redis` refuses writes (`kind`); reads go on. */
export async function refuseWrites(redis: RedisProcess, kind: Refusal): Promise<WriteRefusal> {
  const target = await admin(redis);
  if (kind === 'OOM') {
    await target.config('SET', 'maxmemory-policy', 'noeviction');
    await target.config('SET', 'maxmemory', '1');
    return {
      kind,
      async end() {
        await target.config('SET', 'maxmemory', '0');
        target.disconnect();
      },
    };
  }
  const master = await startRedis();
  const other = await admin(master);
  // The copy: the new master replicates the target once, then stands alone with the same data.
  await target.config('SET', 'repl-diskless-sync-delay', '0');
  await other.replicaof('127.0.0.1', String(redis.port));
  await until(
    async () => /master_link_status:up/.test(await other.info('replication')),
    'the copy of the data',
  );
  await other.replicaof('NO', 'ONE');
  await target.replicaof('127.0.0.1', String(master.port));
  return {
    kind,
    async end() {
      await target.replicaof('NO', 'ONE');
      target.disconnect();
      other.disconnect();
      await master.stop();
    },
  };
}

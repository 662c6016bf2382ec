/**
 * Opening a Redis connection the way the server needs it: fail at once with a clear error when Redis
 * is not there at start-up; once running, reconnect by itself forever, make commands fail at once
 * (instead of queueing without bound) while the connection is down, and give every command a deadline,
 * so that a Redis that stalls (stopped, partitioned: the socket stays open and nothing answers) fails
 * the waits on it instead of holding them for as long as it is silent.
 */

import { Redis } from 'ioredis';
import { RedisError } from './errors.js';
import { observeRedis } from './telemetry.js';

export interface RedisConnectOptions {
  /** Give up on the first connection (connect and first answer) after this long. Default 5,000 ms. */
  readonly connectTimeoutMs?: number;
  /**
   * The deadline of every wait on Redis once connected: a command (a script, a publish, a subscribe)
   * that Redis has not answered within it fails with `RedisTimeoutError`. Default 3,000 ms.
   */
  readonly timeoutMs?: number;
  /** Name shown by CLIENT LIST (helps operators tell nodes apart). */
  readonly connectionName?: string;
  /**
   * Send the commands made in one tick in one write (ioredis auto-pipelining). Default false;
   * `createRedisSharedState` turns it on for its command connection.
   */
  readonly autoPipelining?: boolean;
}

/** The deadline of a wait on Redis when none is configured (ms). */
export const DEFAULT_REDIS_TIMEOUT_MS = 3000;
/** Longest pause between two reconnection attempts. */
const MAX_RECONNECT_DELAY_MS = 1000;
/** What ioredis's `commandTimeout` rejects with. */
const IOREDIS_TIMEOUT = 'Command timed out';
/** A refused write's reply (inside a script, Redis adds where: that part is left out). */
const REFUSED = /^((?:OOM|READONLY) .*?)\.?(?: script: .*)?$/s;

/** Redis could not be reached at start-up; the message names the URL (without its password) and why. */
export class RedisUnavailableError extends RedisError<'REDIS_UNAVAILABLE'> {
  override readonly name = 'RedisUnavailableError';
  constructor(url: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super('REDIS_UNAVAILABLE', `Redis at ${redact(url)} is not reachable: ${reason}`, { cause });
  }
}

/** Redis did not answer a command within the deadline (it stalls, or the network to it does). */
export class RedisTimeoutError extends RedisError<'REDIS_TIMEOUT'> {
  override readonly name = 'RedisTimeoutError';
  constructor(readonly timeoutMs: number) {
    super('REDIS_TIMEOUT', `Redis did not answer within ${timeoutMs} ms`);
  }
}

/**
 * Redis answered, and would not keep a write: it is out of memory (`maxmemory` reached under the
 * `noeviction` policy: `OOM command not allowed …`) or a read-only replica (`READONLY …`, the address
 * moved to a replica). Reads still work. The message is Redis's own reply, so logs and clients see why.
 */
export class RedisWriteRefusedError extends RedisError<'REDIS_WRITE_REFUSED'> {
  override readonly name = 'RedisWriteRefusedError';
  /** Why, from the reply: out of memory or a read-only replica. */
  readonly reason: 'OOM' | 'READONLY';
  /** Read by the server's shared-state errors: Redis refused, it was not unreachable. */
  readonly refused = true;

  constructor(reply: string, cause: unknown) {
    super('REDIS_WRITE_REFUSED', `Redis refused the write: ${reply}`, { cause });
    this.reason = reply.startsWith('OOM') ? 'OOM' : 'READONLY';
  }
}

/** Connect to `url` (`redis://[user:pass@]host:port[/db]`) and resolve once Redis answers. */
export async function connectRedis(url: string, options: RedisConnectOptions = {}): Promise<Redis> {
  if (!/^rediss?:\/\//.test(url)) {
    throw new TypeError(`A Redis URL starts with redis:// or rediss://, got ${JSON.stringify(redact(url))}`);
  }
  const connectTimeoutMs = positive(options.connectTimeoutMs, 5000, 'connectTimeoutMs');
  const timeoutMs = positive(options.timeoutMs, DEFAULT_REDIS_TIMEOUT_MS, 'timeoutMs');
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: connectTimeoutMs,
    commandTimeout: timeoutMs,
    connectionName: options.connectionName,
    enableAutoPipelining: options.autoPipelining ?? false,
    retryStrategy: (times) => Math.min(times * 100, MAX_RECONNECT_DELAY_MS),
  });
  // Errors while reconnecting are expected; callers see failures through their commands.
  let firstError: unknown;
  client.on('error', (error) => {
    firstError ??= error;
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A stalled Redis accepts the TCP connection (the kernel does) and then never answers: the whole
  // start-up, not only the connect, has a deadline.
  const silent = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${connectTimeoutMs} ms`)), connectTimeoutMs);
  });
  try {
    await Promise.race([client.connect().then(() => client.ping()), silent]);
  } catch (error) {
    client.disconnect();
    throw new RedisUnavailableError(url, firstError ?? error);
  } finally {
    clearTimeout(timer);
  }
  observeRedis(client);
  return client;
}

/**
 * `pending`, with a missed deadline reported as a `RedisTimeoutError` naming it (ioredis only says
 * "Command timed out"). Every wait of this package on Redis goes through it.
 */
export function withinDeadline<T>(redis: Redis, pending: Promise<T>): Promise<T> {
  return pending.catch((error: unknown) => {
    throw explain(redis, error);
  });
}

/**
 * `error` as this package reports it: a missed deadline as `RedisTimeoutError`; a refused write as
 * `RedisWriteRefusedError`; an aborted transaction (`EXECABORT`, which hides why) as the error of the
 * first command Redis refused in it.
 */
export function explain(redis: Redis, error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  if (error.message === IOREDIS_TIMEOUT) {
    const ms = redis.options.commandTimeout ?? DEFAULT_REDIS_TIMEOUT_MS;
    return new RedisTimeoutError(ms);
  }
  const first = (error as { previousErrors?: unknown[] }).previousErrors?.[0];
  if (error.message.startsWith('EXECABORT') && first !== undefined) return explain(redis, first);
  const refusal = REFUSED.exec(error.message);
  if (refusal !== null) return new RedisWriteRefusedError(refusal[1] as string, error);
  return error;
}

/** The URL without its password, for messages. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new TypeError(`connectRedis: ${name} must be a positive integer (ms), got ${String(value)}`);
  }
  return value;
}

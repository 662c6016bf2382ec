/**
 * Opening a Redis connection the way the server needs it: fail at once with a clear error when Redis
 * is not there at start-up; once running, reconnect by itself forever, and make commands fail at
 * once (instead of queueing without bound) while the connection is down.
 */

import { Redis } from 'ioredis';
import { observeRedis } from './telemetry.js';

export interface RedisConnectOptions {
  /** Give up on the first connection after this long. Default 5,000 ms. */
  readonly connectTimeoutMs?: number;
  /** Name shown by CLIENT LIST (helps operators tell nodes apart). */
  readonly connectionName?: string;
  /**
   * Send the commands made in one tick in one write (ioredis auto-pipelining). Default false;
   * `createRedisSharedState` turns it on for its command connection.
   */
  readonly autoPipelining?: boolean;
}

/** Longest pause between two reconnection attempts. */
const MAX_RECONNECT_DELAY_MS = 1000;

export class RedisUnavailableError extends Error {
  constructor(url: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`Redis at ${redact(url)} is not reachable: ${reason}`, { cause });
    this.name = 'RedisUnavailableError';
  }
}

/** Connect to `url` (`redis://[user:pass@]host:port[/db]`) and resolve once Redis answers. */
export async function connectRedis(url: string, options: RedisConnectOptions = {}): Promise<Redis> {
  if (!/^rediss?:\/\//.test(url)) {
    throw new TypeError(`A Redis URL starts with redis:// or rediss://, got ${JSON.stringify(redact(url))}`);
  }
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: options.connectTimeoutMs ?? 5000,
    connectionName: options.connectionName,
    enableAutoPipelining: options.autoPipelining ?? false,
    retryStrategy: (times) => Math.min(times * 100, MAX_RECONNECT_DELAY_MS),
  });
  // Errors while reconnecting are expected; callers see failures through their commands.
  let firstError: unknown;
  client.on('error', (error) => {
    firstError ??= error;
  });
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    throw new RedisUnavailableError(url, firstError ?? error);
  }
  observeRedis(client);
  return client;
}

/** The URL without its password, for messages. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}

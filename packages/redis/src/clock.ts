/**
 * The clock every process sharing one Redis agrees on: Redis's own (`TIME`), as this process reads it.
 * The difference between this process's wall clock and Redis's is measured at start-up and again every
 * minute (the half round trip is taken off), and `now()` is this process's clock corrected by it: the
 * times a process writes for others (when a task was made, when a sealed `requestState` expires, when
 * a GET stream was claimed) mean the same to every process, however wrong its own clock is. A skew
 * beyond a threshold is reported, once when it appears and again when it changes by as much, and the
 * last measurement is exported as the `mcp.redis.clock.skew` gauge.
 */

import type { Redis } from 'ioredis';
import { withinDeadline } from './connect.js';
import { watchClockSkew } from './telemetry.js';

export interface RedisClockOptions {
  /** How often the skew is measured again (ms). Default 60,000. */
  readonly intervalMs?: number;
  /** A skew larger than this (ms, either way) is reported. Default 1,000. */
  readonly warnAboveMs?: number;
  /** Told, in words, when the skew goes beyond `warnAboveMs`, changes by as much, or comes back. */
  readonly onSkew?: (message: string) => void;
}

export class RedisClock {
  readonly #redis: Redis;
  readonly #intervalMs: number;
  readonly #warnAboveMs: number;
  readonly #onSkew: (message: string) => void;
  /** This process's clock minus Redis's (ms), as last measured. */
  #skewMs = 0;
  /** The skew last reported (undefined: within the threshold). */
  #reported: number | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #unwatch: (() => void) | undefined;

  constructor(redis: Redis, options: RedisClockOptions = {}) {
    this.#redis = redis;
    this.#intervalMs = options.intervalMs ?? 60_000;
    this.#warnAboveMs = options.warnAboveMs ?? 1000;
    if (!Number.isInteger(this.#intervalMs) || this.#intervalMs < 1000)
      throw new TypeError(`clock intervalMs must be an integer of at least 1000, got ${options.intervalMs}`);
    if (!Number.isInteger(this.#warnAboveMs) || this.#warnAboveMs < 1)
      throw new TypeError(`clock warnAboveMs must be a positive integer, got ${options.warnAboveMs}`);
    this.#onSkew = options.onSkew ?? (() => {});
  }

  /** Redis's time now (ms since epoch), from this process's clock corrected by the last measurement. */
  readonly now = (): number => Date.now() - this.#skewMs;

  /** This process's clock minus Redis's, in ms, as last measured (negative: this process is behind). */
  get skewMs(): number {
    return this.#skewMs;
  }

  /** Measure now, then every interval until `stop`. */
  async start(): Promise<void> {
    await this.measure();
    this.#unwatch ??= watchClockSkew(() => this.#skewMs / 1000);
    this.#timer ??= setInterval(() => void this.measure().catch(() => {}), this.#intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#unwatch?.();
    this.#unwatch = undefined;
  }

  /** Read Redis's time once; resolves with the skew (ms). */
  async measure(): Promise<number> {
    const sent = Date.now();
    const [seconds, micros] = await withinDeadline(this.#redis, this.#redis.time());
    const received = Date.now();
    const redisMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    this.#skewMs = Math.round((sent + received) / 2 - redisMs);
    this.#report();
    return this.#skewMs;
  }

  #report(): void {
    const skew = this.#skewMs;
    const beyond = Math.abs(skew) > this.#warnAboveMs;
    if (!beyond) {
      if (this.#reported !== undefined)
        this.#onSkew(`this process's clock agrees with Redis's again (within ${this.#warnAboveMs} ms)`);
      this.#reported = undefined;
      return;
    }
    if (this.#reported !== undefined && Math.abs(skew - this.#reported) <= this.#warnAboveMs) return;
    this.#reported = skew;
    const seconds = (Math.abs(skew) / 1000).toFixed(1);
    this.#onSkew(
      `this process's clock is ${seconds} s ${skew < 0 ? 'behind' : 'ahead of'} Redis's: the times it ` +
        "shares (task times, sealed requestState expiry, GET stream claims) follow Redis's clock, but " +
        'its own log and trace times are off by as much; check time synchronisation (NTP) on this machine',
    );
  }
}

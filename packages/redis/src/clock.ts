/**
 * The clock every process sharing one Redis agrees on: Redis's own (`TIME`), as this process reads it.
 * The difference between this process's wall clock and Redis's is measured at start-up and again every
 * minute (the reading with the shortest of three round trips, half of it taken off). Beyond a
 * threshold (1 s) the skew is reported, once when it appears and again when it changes by as much,
 * and `now()` is this process's clock corrected by it: the times a process writes for others (when a
 * task was made, when a sealed `requestState` expires, when a GET stream was claimed) then mean the
 * same to every process, however wrong its own clock is. Within the threshold the process's own clock
 * is kept: a synchronised clock is closer than a reading off a loaded event loop, and processes on one
 * machine then share one clock exactly. The last measurement is the `mcp.redis.clock.skew` gauge.
 */

import type { Redis } from 'ioredis';
import { withinDeadline } from './connect.js';
import { watchClockSkew } from './telemetry.js';

export interface RedisClockOptions {
  /** How often the skew is measured again (ms). Default 60,000. */
  readonly intervalMs?: number;
  /**
   * A skew larger than this (ms, either way) is reported, and corrected by `now()`; a smaller one is
   * neither. Default 1,000.
   */
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
  /** The correction `now()` applies: the skew while it is beyond the threshold, else 0. */
  #correctionMs = 0;
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

  /**
   * Redis's time now (ms since epoch): this process's clock, corrected by the last measured skew when
   * that is beyond the threshold.
   */
  readonly now = (): number => Date.now() - this.#correctionMs;

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

  /** Read Redis's time (three times, keeping the shortest round trip); resolves with the skew (ms). */
  async measure(): Promise<number> {
    let best: { rtt: number; skew: number } | undefined;
    for (let i = 0; i < 3; i++) {
      const sent = Date.now();
      const [seconds, micros] = await withinDeadline(this.#redis, this.#redis.time());
      const received = Date.now();
      const redisMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
      const reading = { rtt: received - sent, skew: Math.round((sent + received) / 2 - redisMs) };
      if (best === undefined || reading.rtt < best.rtt) best = reading;
    }
    this.#skewMs = (best as { skew: number }).skew;
    this.#report();
    return this.#skewMs;
  }

  #report(): void {
    const skew = this.#skewMs;
    const beyond = Math.abs(skew) > this.#warnAboveMs;
    this.#correctionMs = beyond ? skew : 0;
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

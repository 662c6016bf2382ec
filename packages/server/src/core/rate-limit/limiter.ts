/**
 * The one place that decides whether a request is over its rate limit, for both eras and every
 * transport: which rule applies (the tool's, else the method's, else the default), whose bucket it is,
 * and what a refusal or a failing store becomes. The session asks it once for each request it routed,
 * alone or in a batch; a request with no caller to tell apart costs no token (and no store call).
 */

import type { McpError } from '../errors.js';
import { isThenable } from '../later.js';
import { MemoryRateLimitStore } from './memory-store.js';
import { RateLimited, storeUnavailable } from './refusal.js';
import type { RateCaller, RateLimitOptions, RateLimitStore, RateRule, RateVerdict } from './types.js';

type Rule = Required<RateRule>;
/** Undefined: serve it. An error: answer with it (`RateLimited`, or the store failed and fails closed). */
export type RateAnswer = McpError | undefined;

export class RateLimiter {
  readonly #default: Rule | undefined;
  readonly #tools: Map<string, Rule>;
  readonly #methods: Map<string, Rule>;
  readonly #key: (caller: RateCaller) => string | undefined;
  readonly #store: RateLimitStore;
  readonly #failClosed: boolean;
  readonly #timeoutMs: number;
  readonly #onError: (error: unknown) => void;

  constructor(options: RateLimitOptions, clock: () => number) {
    this.#default = options.default === undefined ? undefined : ruleOf('default', options.default);
    this.#tools = rulesOf('tools', options.tools);
    this.#methods = rulesOf('methods', options.methods);
    this.#key = keyOf(options.key);
    this.#store = options.store ?? new MemoryRateLimitStore({ clock });
    const failure = options.onStoreFailure ?? 'open';
    if (failure !== 'open' && failure !== 'closed') {
      throw new TypeError("ServerOptions.rateLimits.onStoreFailure must be 'open' or 'closed'");
    }
    this.#failClosed = failure === 'closed';
    const timeout = options.storeTimeoutMs ?? 1000;
    if (!Number.isInteger(timeout) || timeout < 1) {
      throw new TypeError('ServerOptions.rateLimits.storeTimeoutMs must be a positive integer');
    }
    this.#timeoutMs = timeout;
    this.#onError = options.onError ?? (() => {});
  }

  /** Take a token for `method` (and its tool) from `caller`'s bucket: the answer, now or later. */
  check(
    method: string,
    params: Record<string, unknown> | undefined,
    caller: RateCaller,
  ): RateAnswer | Promise<RateAnswer> {
    const scope = this.#scopeOf(method, params);
    if (scope === undefined) return undefined;
    const who = this.#key(caller);
    if (who === undefined) return undefined;
    let verdict: RateVerdict | PromiseLike<RateVerdict>;
    try {
      verdict = this.#store.take(`${scope.bucket}\u0000${who}`, scope.rule);
    } catch (error) {
      return this.#failed(error);
    }
    if (!isThenable(verdict)) return answerOf(verdict, scope);
    return this.#bounded(verdict).then(
      (v) => answerOf(v, scope),
      (error) => this.#failed(error),
    );
  }

  #scopeOf(method: string, params: Record<string, unknown> | undefined): Scope | undefined {
    if (method === 'tools/call' && typeof params?.name === 'string') {
      const rule = this.#tools.get(params.name);
      if (rule !== undefined) return { rule, bucket: `tool:${params.name}`, what: `tool "${params.name}"` };
    }
    const rule = this.#methods.get(method);
    if (rule !== undefined) return { rule, bucket: `method:${method}`, what: method };
    if (this.#default !== undefined) return { rule: this.#default, bucket: '*', what: 'requests' };
    return undefined;
  }

  #bounded(verdict: PromiseLike<RateVerdict>): Promise<RateVerdict> {
    return new Promise<RateVerdict>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the rate-limit store did not answer within ${this.#timeoutMs} ms`)),
        this.#timeoutMs,
      );
      (timer as { unref?: () => void }).unref?.();
      verdict.then(
        (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        (error) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  #failed(error: unknown): RateAnswer {
    try {
      this.#onError(error);
    } catch {
      // A reporter that throws must not turn a store failure into a crash or a hung request.
    }
    return this.#failClosed ? storeUnavailable(error) : undefined;
  }
}

interface Scope {
  readonly rule: Rule;
  /** The bucket's name among the caller's. */
  readonly bucket: string;
  /** What the limit is on, for the message. */
  readonly what: string;
}

function answerOf(verdict: RateVerdict, scope: Scope): RateAnswer {
  if (verdict.allowed) return undefined;
  return new RateLimited(scope.what, scope.rule, Math.max(1, Math.ceil(verdict.retryAfterMs)));
}

function ruleOf(where: string, rule: RateRule): Rule {
  const rate = rule?.rate;
  if (typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0) {
    throw new TypeError(
      `ServerOptions.rateLimits.${where}.rate must be a number of requests a second above 0`,
    );
  }
  const burst = rule.burst ?? Math.max(1, Math.ceil(rate));
  if (!Number.isInteger(burst) || burst < 1) {
    throw new TypeError(`ServerOptions.rateLimits.${where}.burst must be a positive integer`);
  }
  return { rate, burst };
}

function rulesOf(where: string, rules: Readonly<Record<string, RateRule>> | undefined): Map<string, Rule> {
  const out = new Map<string, Rule>();
  for (const [name, rule] of Object.entries(rules ?? {})) out.set(name, ruleOf(`${where}.${name}`, rule));
  return out;
}

function keyOf(key: RateLimitOptions['key']): (caller: RateCaller) => string | undefined {
  if (typeof key === 'function') return key;
  if (key === undefined || key === 'address') {
    return (c) => principalOf(c) ?? c.client ?? sessionOf(c) ?? connectionOf(c);
  }
  if (key === 'session') return (c) => principalOf(c) ?? sessionOf(c) ?? c.client ?? connectionOf(c);
  throw new TypeError("ServerOptions.rateLimits.key must be 'address', 'session' or a function");
}

const principalOf = (c: RateCaller) => (c.principal === undefined ? undefined : `p:${c.principal}`);
const sessionOf = (c: RateCaller) => (c.sessionId === undefined ? undefined : `s:${c.sessionId}`);
/** Undefined for a connection of one exchange: its bucket would be new every time, so it is not limited. */
const connectionOf = (c: RateCaller) => (c.connectionKey === undefined ? undefined : `c:${c.connectionKey}`);

/**
 * Sealed `requestState` for multi-round-trip requests (2026-07-28): a JSON payload bound to the
 * principal, an expiry and a digest of the request, authenticated with a MAC. The core does no
 * cryptography itself: the MAC is injected (the package entry installs HMAC-SHA256 from
 * node:crypto; `ServerOptions.requestState.mac` may pass any other, e.g. a WebCrypto one).
 *
 * Expiry across processes: a state is sealed by one process and may be opened by another, so its
 * expiry is written and checked on the server's clock (`ServerOptions.clock`): with a shared store's
 * clock (Redis's time, as `serve --redis` sets it) processes agree however wrong their own clocks
 * are. Without one, a state is still accepted `clockToleranceMs` past its expiry, so that processes
 * whose clocks differ by less agree; a larger skew makes a slow opener accept a state longer and a
 * fast one refuse it as expired.
 */

import { ErrorCode, LocalError, McpError } from '../errors.js';

/** A keyed MAC over a string, as a string (sync, or async for WebCrypto). */
export type Mac = (data: string) => string | Promise<string>;

/** Makes a MAC from a key; with no key, from a fresh random key of this process only. */
export type MacFactory = (key: string | Uint8Array | undefined) => Mac;

let defaultFactory: MacFactory | undefined;

/** Install the MAC factory used when `requestState.mac` is not given (the package entry does). */
export function useMacFactory(factory: MacFactory): void {
  defaultFactory = factory;
}

export interface RequestStateOptions {
  /**
   * The sealing key. Every process behind one endpoint must use the same key, or a retry that
   * lands on another process is refused. Default: a random key made at start-up (one process).
   */
  key?: string | Uint8Array;
  /** A MAC to use instead of HMAC-SHA256 over `key`. */
  mac?: Mac;
  /** How long a client may take to answer an input request. Default 600 000 (10 minutes). */
  ttlMs?: number;
  /**
   * How long past its expiry a state is still accepted (ms), for processes whose clocks differ and
   * share no clock (`ServerOptions.clock`). Default 30 000.
   */
  clockToleranceMs?: number;
  /**
   * Who is calling, from the transport's auth value; state is refused for another principal.
   * Default: the principal key the transport computed (`ctx.principal`; none without auth).
   */
  principal?: (auth: unknown) => string | undefined;
}

/** What a sealed state carries. */
export interface StatePayload {
  /** The round this state leads to (2 after the first input_required). */
  round: number;
  /** Answers gathered in earlier rounds, by input key. */
  answers: Record<string, unknown>;
  /** The keys asked for in the round that issued this state. */
  asked: string[];
}

interface Sealed extends StatePayload {
  v: 1;
  method: string;
  digest: string;
  principal: string;
  expires: number;
}

const PREFIX = 'mrtr1.';

/** Who makes a request: the transport's auth value and the principal key it computed. */
export interface Caller {
  readonly auth: unknown;
  readonly principal: string | undefined;
}

/** One server's sealer: seals and opens state for a request described by method, params, caller. */
export class StateSealer {
  private mac: Mac | undefined;

  private readonly toleranceMs: number;

  /** `clock`: the time processes agree on (ServerOptions.clock), in ms since epoch. */
  constructor(
    private readonly options: RequestStateOptions,
    private readonly clock: () => number = Date.now,
  ) {
    const tolerance = options.clockToleranceMs ?? 30_000;
    if (!Number.isInteger(tolerance) || tolerance < 0)
      throw new TypeError('ServerOptions.requestState.clockToleranceMs must be a non-negative integer (ms)');
    this.toleranceMs = tolerance;
  }

  private macOf(): Mac {
    if (this.mac === undefined) {
      const mac = this.options.mac ?? defaultFactory?.(this.options.key);
      if (mac === undefined) {
        throw new LocalError(
          'CAPABILITY_NOT_DECLARED',
          'Sealing requestState needs ServerOptions.requestState.mac (no default MAC is installed)',
        );
      }
      this.mac = mac;
    }
    return this.mac;
  }

  private principalOf(caller: Caller): string {
    if (this.options.principal !== undefined) return this.options.principal(caller.auth) ?? '';
    return caller.principal ?? '';
  }

  /** Seal `payload` for the request `method`/`salient` made by `caller`. */
  async seal(method: string, salient: unknown, caller: Caller, payload: StatePayload): Promise<string> {
    const mac = this.macOf();
    const sealed: Sealed = {
      v: 1,
      method,
      digest: await mac(`digest\n${method}\n${canonical(salient)}`),
      principal: await mac(`principal\n${this.principalOf(caller)}`),
      expires: this.clock() + (this.options.ttlMs ?? 600_000),
      ...payload,
    };
    const body = JSON.stringify(sealed);
    return `${PREFIX}${await mac(`state\n${body}`)}.${body}`;
  }

  /** Open a state the client echoed; -32602 naming why when it is forged, expired or misplaced. */
  async open(token: unknown, method: string, salient: unknown, caller: Caller): Promise<StatePayload> {
    if (typeof token !== 'string' || !token.startsWith(PREFIX))
      throw refused('is not a requestState this server issued');
    const dot = token.indexOf('.', PREFIX.length);
    if (dot < 0) throw refused('is not a requestState this server issued');
    const tag = token.slice(PREFIX.length, dot);
    const body = token.slice(dot + 1);
    const mac = this.macOf();
    if (!sameText(tag, await mac(`state\n${body}`))) {
      throw refused('failed its integrity check: it was altered, or sealed with another key');
    }
    const sealed = JSON.parse(body) as Sealed;
    if (sealed.v !== 1 || typeof sealed.expires !== 'number') throw refused('has an unknown layout');
    if (this.clock() > sealed.expires + this.toleranceMs)
      throw refused(`expired at ${new Date(sealed.expires).toISOString()}`);
    if (
      sealed.method !== method ||
      !sameText(sealed.digest, await mac(`digest\n${method}\n${canonical(salient)}`))
    ) {
      throw refused(`was issued for another request (it belongs to a different ${sealed.method} call)`);
    }
    if (!sameText(sealed.principal, await mac(`principal\n${this.principalOf(caller)}`))) {
      throw refused('was issued to another principal');
    }
    return { round: sealed.round, answers: sealed.answers ?? {}, asked: sealed.asked ?? [] };
  }
}

function refused(why: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Invalid params: requestState ${why}`, {
    pointer: '/params/requestState',
  });
}

/** Compare two strings in time that depends only on their length. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** JSON with object keys sorted, so equal values give equal text. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value).sort();
    const obj = value as Record<string, unknown>;
    return `{${keys
      .filter((k) => obj[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

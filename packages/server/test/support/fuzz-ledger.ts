/**
 * Bookkeeping of the fuzz tests: every message the server sent, answers counted per id and errors
 * with `id: null` counted, checked against what the cases owed.
 */
import type { BuiltCase, Expected } from './fuzz-cases.js';

type Msg = Record<string, unknown>;

/** An answer reduced to what the checks need (long runs would not keep megabytes of echoed text). */
interface Answer {
  readonly code: number | undefined;
  /** For each answer owed to this id (in order), whether this one satisfies it. */
  readonly fits: boolean[];
}

export class Ledger {
  readonly answers = new Map<string, Answer[]>();
  readonly owed = new Map<string, Expected[]>();
  nulls = 0;
  owedNulls = 0;
  /** Answers owed and not yet received (kept up to date so waiting stays cheap on long runs). */
  private missing = 0;
  /** Anything that is not a well-formed JSON-RPC response (the fuzz server sends nothing else). */
  readonly violations: string[] = [];
  private waiters: (() => void)[] = [];

  /** Record one parsed message (a batch answer is an array). */
  add(message: unknown): void {
    if (Array.isArray(message)) {
      if (message.length === 0) this.violations.push('empty batch answer');
      for (const m of message) this.add(m);
      return;
    }
    const m = message as Msg;
    if (typeof m !== 'object' || m === null || m.jsonrpc !== '2.0' || !('id' in m)) {
      this.violations.push(`not a response: ${JSON.stringify(message).slice(0, 200)}`);
      return;
    }
    const error = m.error as { code?: unknown; message?: unknown } | undefined;
    if ('error' in m && (typeof error?.code !== 'number' || typeof error.message !== 'string')) {
      this.violations.push(`malformed error: ${JSON.stringify(m).slice(0, 200)}`);
    }
    if (typeof error?.message === 'string' && /\n\s+at |\/[a-z]+\/.*\.(?:ts|js):\d+/.test(error.message)) {
      this.violations.push(`stack trace or path in an error: ${error.message.slice(0, 200)}`);
    }
    if (m.id === null) this.nulls++;
    else {
      const key = JSON.stringify(m.id);
      const list = this.answers.get(key) ?? [];
      const owed = this.owed.get(key) ?? [];
      list.push({ code: error?.code as number | undefined, fits: owed.map((e) => matches(m, e)) });
      this.answers.set(key, list);
      if (list.length <= (this.owed.get(key)?.length ?? 0)) this.missing--;
    }
    for (const w of this.waiters.splice(0)) w();
  }

  /** Add what a case owes; returns the keys it owes answers for. */
  owe(c: BuiltCase): string[] {
    this.owedNulls += c.nulls;
    const keys: string[] = [];
    for (const [id, list] of c.expects) {
      const key = JSON.stringify(id);
      const before = this.owed.get(key) ?? [];
      const arrived = Math.max(0, (this.answers.get(key)?.length ?? 0) - before.length);
      this.missing += Math.max(0, list.length - arrived);
      this.owed.set(key, [...before, ...list]);
      keys.push(key);
    }
    return keys;
  }

  answered(id: string | number): boolean {
    return (this.answers.get(JSON.stringify(id))?.length ?? 0) > 0;
  }

  /** Resolves once `done()` holds (re-checked on every message), or rejects after `ms`. */
  async until(done: () => boolean, ms: number, what: string): Promise<void> {
    const deadline = Date.now() + ms;
    while (!done()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Every id owed got its answers (as many as owed) — no fewer yet. */
  allOwedArrived(): boolean {
    return this.missing <= 0 && this.nulls >= this.owedNulls;
  }

  /**
   * Problems: missing, extra or wrong answers, and every violation seen. With `keys`, only those ids
   * are checked one by one (a case's own); without, every id of the run.
   */
  problems(keys?: readonly string[]): string[] {
    const out = [...this.violations];
    const owed = keys === undefined ? this.owed : new Map(keys.map((k) => [k, this.owed.get(k) ?? []]));
    for (const [key, expected] of owed) {
      const got = [...(this.answers.get(key) ?? [])];
      const codes = JSON.stringify(got.map((a) => a.code ?? 'result'));
      if (got.length !== expected.length) {
        out.push(`id ${key}: ${got.length} answers (${codes}) for ${expected.length} owed`);
        continue;
      }
      expected.forEach((e, i) => {
        const at = got.findIndex((a) => a.fits[i] === true);
        if (at < 0) out.push(`id ${key}: no answer matching ${describe(e)} among ${codes}`);
        else got.splice(at, 1);
      });
    }
    if (keys === undefined) {
      for (const [key, got] of this.answers) {
        if (!this.owed.has(key) && !key.startsWith('"probe-')) out.push(`id ${key}: unexpected answer`);
        if (key.startsWith('"probe-') && got.length !== 1) out.push(`probe ${key}: ${got.length} answers`);
      }
    }
    if (this.nulls !== this.owedNulls) out.push(`${this.nulls} id-null errors for ${this.owedNulls} owed`);
    return out;
  }
}

function matches(m: Msg, e: Expected): boolean {
  if (e.code !== undefined) return (m.error as { code?: number } | undefined)?.code === e.code;
  return 'result' in m && (e.result === undefined || e.result(m.result));
}

function describe(e: Expected): string {
  return e.code !== undefined ? `error ${e.code}` : 'a result';
}

/** Unique ids for one run. */
export function idSource(prefix: string): () => string {
  let n = 0;
  return () => `${prefix}-${++n}`;
}

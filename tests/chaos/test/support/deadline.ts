/**
 * How one request of the load ends, within its deadline: a value, an error (described in a form that
 * groups alike errors), or nothing (hung; the request is then aborted so the client lets go of it);
 * and how the harness waits, with a deadline, for a condition whose failure it books itself.
 */

import { waitFor } from '@entropic-mcp/test-kit/wait';

/** How a request ended, and after how long (ms). */
export type Settled<T> = (
  | { readonly kind: 'value'; readonly value: T }
  | { readonly kind: 'error'; readonly note: string; readonly code?: number }
  | { readonly kind: 'hung' }
) & { readonly ms: number };

/**
 * Run `work` until it settles or `deadlineMs` passes: a promise of the SDK that has not settled by then
 * is hung, whatever the wire showed (a stream that broke with nothing to resume from included).
 */
export async function withDeadline<T>(
  work: (signal: AbortSignal) => Promise<T>,
  deadlineMs: number,
): Promise<Settled<T>> {
  const abort = new AbortController();
  const started = Date.now();
  const ms = (): number => Date.now() - started;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<Settled<T>>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'hung', ms: ms() }), deadlineMs);
  });
  const done = work(abort.signal).then(
    (value): Settled<T> => ({ kind: 'value', value, ms: ms() }),
    (error: unknown): Settled<T> => {
      const code = (error as { code?: unknown } | undefined)?.code;
      const note = describeError(error);
      return typeof code === 'number'
        ? { kind: 'error', note, code, ms: ms() }
        : { kind: 'error', note, ms: ms() };
    },
  );
  const settled = await Promise.race([done, expired]);
  clearTimeout(timer);
  if (settled.kind !== 'value') abort.abort(new Error('chaos: request given up'));
  return settled;
}

/** An error as a short line: its message (and the network cause), with ids and payloads blanked. */
export function describeError(error: unknown): string {
  const e = error as { message?: unknown; cause?: { code?: unknown; message?: unknown } } | undefined;
  let text = typeof e?.message === 'string' && e.message !== '' ? e.message : String(error);
  const cause = e?.cause;
  if (cause !== undefined && cause !== null) text += ` (${String(cause.code ?? cause.message ?? cause)})`;
  return text
    .replace(/p[0-9a-z]+-\d+-\d+/g, '<payload>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/:\d{4,5}\b/g, ':<port>')
    .replace(/\b\d{6,}\b/g, '<n>')
    .replace(/\s+/g, ' ')
    .slice(0, 160);
}

/**
 * Wait for `check` for at most `ms` (the test kit's `waitFor`); true when it held, false when the deadline
 * passed first. For the harness's waits whose failure is judged by the caller (a ledger problem, a round
 * with nothing to cut), not thrown.
 */
export async function waitUntil(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  let failed: { readonly error: unknown } | undefined;
  const guarded = async (): Promise<boolean> => {
    try {
      return await check();
    } catch (error) {
      failed = { error };
      throw error;
    }
  };
  try {
    await waitFor(guarded, 'a condition of the chaos harness', ms);
    return true;
  } catch (error) {
    if (failed !== undefined) throw error; // the check itself failed: not a deadline passed
    return false;
  }
}

/**
 * How one request of the load ends, within its deadline: a value, an error (described in a form that
 * groups alike errors), or nothing (hung; the request is then aborted so the client lets go of it).
 */

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

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// The one exit for failures: each kind a stage can throw becomes its status, body and report.
import { describe, expect, it } from 'vitest';
import { RateLimited, storeUnavailable } from '../../core/rate-limit/refusal.js';
import { BodyConsumedError, BodyTooLargeError } from '../seam/body-errors.js';
import { Refused } from '../seam/refusal.js';
import type { HeaderList, ResponseSink } from '../seam/sink.js';
import { SharedStateUnavailable } from '../state/shared-state.js';
import { answerFailure } from './failure.js';

/** A response sink that keeps what was written. */
function memorySink() {
  const written = { status: 0, headers: {} as Record<string, unknown>, body: '' };
  const sink: ResponseSink = {
    headersSent: false,
    writableEnded: false,
    destroyed: false,
    writeHead(status: number, headers?: HeaderList) {
      written.status = status;
      Object.assign(written.headers, headers);
      return sink;
    },
    setHeader: () => sink,
    flushHeaders: () => undefined,
    write: () => true,
    end(chunk?: string) {
      written.body += chunk ?? '';
      return sink;
    },
    once: () => sink,
  };
  return { sink, written };
}

function answer(failure: unknown, id?: unknown) {
  const { sink, written } = memorySink();
  const reported: unknown[] = [];
  answerFailure(sink, failure, (error) => reported.push(error), id);
  const body = JSON.parse(written.body);
  return { ...written, error: body.error, id: body.id, reported };
}

describe('answerFailure', () => {
  it('writes a refusal with its status, code, headers and id, and reports its reason only', () => {
    const plain = answer(
      new Refused({ status: 429, code: -32000, message: 'Too Many', headers: { 'retry-after': '5' } }),
    );
    expect([plain.status, plain.error.code, plain.headers['retry-after'], plain.reported]).toEqual([
      429,
      -32000,
      '5',
      [],
    ]);
    const cause = new Error('connect failed');
    const started = answer(
      new Refused({ status: 500, code: -32603, message: 'Internal error: x', id: 7 }, cause),
    );
    expect([started.status, JSON.parse(started.body).id, started.reported]).toEqual([500, 7, [cause]]);
  });

  it('answers shared state that could not be used with 503 and Retry-After, and reports it', () => {
    const failure = new SharedStateUnavailable(new Error('ECONNREFUSED'));
    const out = answer(failure);
    expect([out.status, out.headers['retry-after'], out.error.message]).toEqual([503, '5', failure.message]);
    expect(out.reported).toEqual([failure]);
  });

  it("answers the core's rate-limit refusal with 429, Retry-After in whole seconds rounded up, and the id", () => {
    const out = answer(new RateLimited('tool "echo"', { rate: 2, burst: 5 }, 1001), 9);
    expect([out.status, out.headers['retry-after'], out.id, out.reported]).toEqual([429, '2', 9, []]);
    expect(out.error).toMatchObject({
      code: -32029,
      data: { retryAfterMs: 1001, limit: { rate: 2, burst: 5 } },
    });
    // Its store failing closed: 503 with the store's Retry-After.
    const closed = answer(storeUnavailable(new Error('OOM')), 'a');
    expect([closed.status, closed.headers['retry-after'], closed.id, closed.error.code]).toEqual([
      503,
      '5',
      'a',
      -32000,
    ]);
  });

  it('answers body errors with 413 and 400 without reporting them', () => {
    expect(answer(new BodyTooLargeError(10)).status).toBe(413);
    const consumed = answer(new BodyConsumedError());
    expect([consumed.status, consumed.error.code, consumed.reported]).toEqual([400, -32000, []]);
  });

  it('answers anything else with 500 Internal error, reported, its text never shown', () => {
    const failure = new TypeError('secret path /etc/x');
    const out = answer(failure);
    expect([out.status, out.error.code, out.error.message, out.reported]).toEqual([
      500,
      -32603,
      'Internal error',
      [failure],
    ]);
  });
});

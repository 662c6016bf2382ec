/**
 * The chaos suite's books: every request a scenario makes ends in exactly one of five outcomes, kept
 * per lane (a kind of client and request); numbered stream events are kept beside them. The README
 * defines each outcome for each request kind.
 */

export type Outcome = 'correct' | 'clearError' | 'hung' | 'duplicated' | 'wrong';
export const OUTCOMES: readonly Outcome[] = ['correct', 'clearError', 'hung', 'duplicated', 'wrong'];

/** One request: its lane, a key that names it (its unique payload), its outcome, why, and how long it took. */
export interface Entry {
  readonly lane: string;
  readonly key: string;
  outcome: Outcome;
  note: string;
  readonly ms: number;
}

/** Numbered events of the GET streams: delivered once and in order, lost (stored, never delivered), … */
export interface EventCounts {
  delivered: number;
  duplicated: number;
  outOfOrder: number;
  /** Acknowledged by Redis (stored in the stream's log) and never delivered. */
  lost: number;
  /** Raised, never stored and never delivered (connection-wide messages are at most once). */
  dropped: number;
}

/** What the clients did on the wire to get their answers and events through the faults. */
export interface WireCounts {
  /** Requests that carried `Last-Event-ID`. */
  resumptions: number;
  /** Final answers to calls that arrived on a resumption rather than on their POST. */
  recovered: number;
  /** GET streams resumed on another process than the one that sent the event resumed from. */
  resumedElsewhere: number;
}

/** Requests per outcome, and the slowest answer (correct or clear error) in ms. */
export type LaneCounts = Record<Outcome, number> & { requests: number; slowestMs: number };

export class Ledger {
  readonly entries: Entry[] = [];
  readonly events: EventCounts = { delivered: 0, duplicated: 0, outOfOrder: 0, lost: 0, dropped: 0 };
  readonly wire: WireCounts = { resumptions: 0, recovered: 0, resumedElsewhere: 0 };
  /** What the scenario did (faults injected, resumptions seen, …), printed beside the counts. */
  readonly facts: string[] = [];
  /** Failures that are not a request's (a lane that never answered again after the fault, …). */
  readonly problems: string[] = [];
  /** What the wire showed of requests that failed (the first few), for finding out why. */
  readonly traces: string[] = [];

  constructor(readonly scenario: string) {}

  record(lane: string, key: string, outcome: Outcome, note = '', ms = 0): Entry {
    const entry: Entry = { lane, key, outcome, note, ms };
    this.entries.push(entry);
    return entry;
  }

  /** Re-book a request as worse than first thought (a second answer or a second run seen later). */
  downgrade(entry: Entry, outcome: 'duplicated' | 'wrong', note: string): void {
    if (entry.outcome === 'wrong') return;
    entry.outcome = outcome;
    entry.note = note;
  }

  fact(text: string): void {
    this.facts.push(text);
  }

  problem(text: string): void {
    this.problems.push(text);
  }

  trace(text: string): void {
    if (this.traces.length < 8) this.traces.push(text);
  }

  lanes(): string[] {
    return [...new Set(this.entries.map((e) => e.lane))];
  }

  counts(lane?: string): LaneCounts {
    const counts = { requests: 0, correct: 0, clearError: 0, hung: 0, duplicated: 0, wrong: 0, slowestMs: 0 };
    for (const e of this.entries) {
      if (lane !== undefined && e.lane !== lane) continue;
      counts.requests++;
      counts[e.outcome]++;
      if (e.outcome === 'correct' || e.outcome === 'clearError')
        counts.slowestMs = Math.max(counts.slowestMs, e.ms);
    }
    return counts;
  }

  /** The requests that did not end correctly, grouped by lane, outcome and note, most frequent first. */
  notes(limit = 12): string[] {
    const groups = new Map<string, number>();
    for (const e of this.entries) {
      if (e.outcome === 'correct') continue;
      const key = `${e.lane} ${e.outcome}: ${e.note}`;
      groups.set(key, (groups.get(key) ?? 0) + 1);
    }
    return [...groups]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([key, n]) => `${n} × ${key}`);
  }

  /** What a scenario must end with: nothing hung, duplicated, wrong or lost. */
  failures(): string[] {
    const total = this.counts();
    const failures: string[] = [...this.problems];
    for (const outcome of ['hung', 'duplicated', 'wrong'] as const)
      if (total[outcome] > 0) failures.push(`${total[outcome]} ${outcome}`);
    if (this.events.duplicated > 0) failures.push(`${this.events.duplicated} events delivered twice`);
    if (this.events.outOfOrder > 0) failures.push(`${this.events.outOfOrder} events out of order`);
    if (this.events.lost > 0) failures.push(`${this.events.lost} events Redis acknowledged were lost`);
    return failures;
  }
}

const HEAD = '| lane | requests | correct | clear error | hung | duplicated | wrong | slowest answer |';
const RULE = '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |';

function row(name: string, c: LaneCounts): string {
  const slowest = `${(c.slowestMs / 1000).toFixed(1)} s`;
  return `| ${name} | ${c.requests} | ${c.correct} | ${c.clearError} | ${c.hung} | ${c.duplicated} | ${c.wrong} | ${slowest} |`;
}

/** The scenario as Markdown: per-lane counts, the events, what was done, and the errors seen. */
export function renderLedger(ledger: Ledger, seconds: number): string {
  const e = ledger.events;
  const lines = [
    `### ${ledger.scenario}`,
    '',
    HEAD,
    RULE,
    ...ledger.lanes().map((lane) => row(lane, ledger.counts(lane))),
    row('**all**', ledger.counts()),
    '',
    `GET stream events: ${e.delivered} delivered once and in order, ${e.duplicated} duplicated, ` +
      `${e.outOfOrder} out of order, ${e.lost} lost after Redis acknowledged them, ` +
      `${e.dropped} dropped before being stored (allowed: at most once). ${seconds.toFixed(1)} s.`,
  ];
  if (ledger.facts.length > 0) lines.push('', ...ledger.facts.map((f) => `- ${f}`));
  if (ledger.problems.length > 0) lines.push('', ...ledger.problems.map((p) => `- **failed**: ${p}`));
  const notes = ledger.notes();
  if (notes.length > 0)
    lines.push('', 'Requests that did not end correctly:', '', ...notes.map((n) => `- ${n}`));
  if (ledger.traces.length > 0)
    lines.push('', 'What the wire showed of the first failures:', '', ...ledger.traces.map((t) => `- ${t}`));
  return `${lines.join('\n')}\n`;
}

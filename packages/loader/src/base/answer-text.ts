/**
 * The fast reading of a plugin's `execute` answer in its usual compact shape, `{"result":"…"}` or
 * `{"result":"…","directives":[]}`: the `result` string literal is checked (and decoded only when it holds
 * escapes) and, when it is long, kept as JSON text, so the bridge can write it to the client as it is, without
 * serialising the text a second time (a short text costs less to serialise again than to splice in). Any other
 * shape, and anything doubtful, is left to the full parse in validate.ts, which
 * words the errors. An answer whose result needs no unescaping at all was already recognised by the instance
 * (`WIRE_PLAIN` in native/wire/wire.h) and arrives as the result text alone: `plainAnswer`.
 */
import type { PluginAnswer } from './types.js';

const HEAD = '{"result":"';
const DIRECTIVES = ',"directives":[]}';
const BACKSLASH = 92;

/** A raw control character: JSON strings must escape them. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: this is the check for them
const CONTROL = /[\u0000-\u001f]/;

/** Results shorter than this (in UTF-16 units of their literal) are not kept as JSON text. */
export const RAW_MIN_LENGTH = 1024;

/** Where the raw `result` literal of an answer read by `compactAnswer` is kept (not enumerable). */
const RESULT_JSON = Symbol('entropic.resultJson');

/** Index of the quote closing the string literal opened at `open`, or -1. */
function closingQuote(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return -1;
    let escapes = 0;
    while (text.charCodeAt(at - 1 - escapes) === BACKSLASH) escapes++;
    if ((escapes & 1) === 0) return at;
  }
}

/** A literal without escapes is its own content, once it holds no control character. */
function plain(literal: string): string | undefined {
  return CONTROL.test(literal) ? undefined : literal.slice(1, -1);
}

/** A literal with escapes, decoded by JSON.parse (which also checks them); undefined when it is not valid. */
function unescaped(literal: string): string | undefined {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return undefined;
  }
}

/** The directives of an answer that asked for none, shared (an answer is never changed). */
const NO_DIRECTIVES = Object.freeze([]) as readonly never[];

/** A long result keeps its literal, so the bridge splices it in instead of serialising it again. */
function withLiteral(answer: PluginAnswer, literal: string): PluginAnswer {
  if (literal.length >= RAW_MIN_LENGTH) Object.defineProperty(answer, RESULT_JSON, { value: literal });
  return answer;
}

/** An answer whose result needs no escaping: its JSON literal is the result quoted (see `resultLiteralOf`). */
class PlainAnswer implements PluginAnswer {
  readonly result: string;
  readonly directives: readonly never[];

  constructor(result: string) {
    this.result = result;
    this.directives = NO_DIRECTIVES;
  }
}

/**
 * The answer of a compact shape whose result holds no quote, backslash or control character, given that result
 * (the instance checked the shape). Such a text is its own JSON literal once quoted.
 */
export function plainAnswer(result: string): PluginAnswer {
  const answer = new PlainAnswer(result);
  return result.length + 2 >= RAW_MIN_LENGTH ? withLiteral(answer, `"${result}"`) : answer;
}

/** The answer when `text` has the compact shape with a valid `result` literal; undefined otherwise. */
export function compactAnswer(text: string): PluginAnswer | undefined {
  if (!text.startsWith(HEAD)) return undefined;
  const open = HEAD.length - 1;
  const close = closingQuote(text, open);
  if (close < 0) return undefined;
  const rest = text.length - close - 1;
  if (!(rest === 1 ? text.endsWith('}') : rest === DIRECTIVES.length && text.endsWith(DIRECTIVES))) {
    return undefined;
  }
  const literal = text.slice(open, close + 1);
  const result = literal.indexOf('\\') < 0 ? plain(literal) : unescaped(literal);
  if (result === undefined) return undefined;
  return withLiteral({ result, directives: NO_DIRECTIVES }, literal);
}

/** The `result` of an answer as the JSON string literal the plugin wrote, when `compactAnswer` read it (long). */
export function resultJsonOf(answer: PluginAnswer): string | undefined {
  return (answer as { [RESULT_JSON]?: string })[RESULT_JSON];
}

/**
 * The `result` of an answer as a JSON string literal whenever one comes without serialising: the literal kept
 * for a long result (`resultJsonOf`), or a plain answer's result quoted.
 */
export function resultLiteralOf(answer: PluginAnswer): string | undefined {
  const kept = resultJsonOf(answer);
  if (kept !== undefined || !(answer instanceof PlainAnswer)) return kept;
  return `"${answer.result}"`;
}

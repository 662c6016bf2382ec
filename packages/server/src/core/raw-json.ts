/**
 * Raw JSON in answers: a value that already exists as JSON text (a C plugin's answer) goes into the message
 * text as it is, instead of being parsed and serialised again. Transports write messages with `encodeJson`,
 * which splices each `RawJson` in, and writes a reply whose whole result is a `PreparedJson` from the text it
 * keeps ready; anything else that serialises a message (`JSON.stringify`) still gets the right value, through
 * `toJSON` or the fields, at the cost of a parse or a serialisation.
 */

/** What `toJSON` stands in with while `encodeJson` runs; it never reaches the wire. */
const MARK = '\u0000entropic-raw-json\u0000';
const QUOTED_MARK = JSON.stringify(MARK);

/** The texts met by the `encodeJson` in progress, in the order `JSON.stringify` visited them. */
let met: string[] | undefined;

/**
 * A JSON value held as its text. The text must be one valid JSON value (the caller checks it: it is written to
 * the wire unchanged). Usable anywhere in a result, e.g. as the `text` of a text content block.
 */
export class RawJson {
  readonly json: string;

  constructor(json: string) {
    this.json = json;
  }

  toJSON(): unknown {
    if (met === undefined) return JSON.parse(this.json);
    met.push(this.json);
    return MARK;
  }
}

/**
 * An object (a tool result) that can write itself as JSON text it keeps ready. A reply whose `result` is one is
 * written as `{"jsonrpc":"2.0","id":…,"result":…}` with that text, without serialising the result, as long as
 * `jsonText()` vouches for the object's current fields; otherwise, and everywhere else (`JSON.stringify`, a
 * store), the fields are serialised as any object's.
 */
export abstract class PreparedJson {
  /** Exactly what `JSON.stringify(this)` would give for the fields as they are now, or undefined. */
  abstract jsonText(): string | undefined;
  /**
   * Optional: the JSON text of each field as it is now (exactly what `JSON.stringify` gives for its value), by
   * name, or undefined. With it, a shallow copy that adds or replaces fields (a 2026-07-28 result gets
   * `resultType` and the server's `_meta`) is written from these texts too, without serialising the fields it
   * kept.
   */
  fieldTexts?(): Readonly<Record<string, string>> | undefined;
}

const REPLY_KEYS = ['jsonrpc', 'id', 'result'] as const;

/** A reply `{ jsonrpc: '2.0', id, result }` (those keys, that order) with a `PreparedJson` result, as text. */
function preparedReply(message: Record<string, unknown>, result: PreparedJson): string | undefined {
  const id = message.id;
  let idText: string;
  if (typeof id === 'number' && Number.isFinite(id)) idText = String(id);
  else if (typeof id === 'string') idText = JSON.stringify(id);
  else return undefined;
  if (message.jsonrpc !== '2.0') return undefined;
  const keys = Object.keys(message);
  if (
    keys.length !== 3 ||
    keys[0] !== REPLY_KEYS[0] ||
    keys[1] !== REPLY_KEYS[1] ||
    keys[2] !== REPLY_KEYS[2]
  )
    return undefined;
  const json = result.jsonText();
  return json === undefined ? undefined : `{"jsonrpc":"2.0","id":${idText},"result":${json}}`;
}

/** `JSON.stringify(value)`, with every `RawJson` in it written as its text and a `PreparedJson` result as its own. */
export function encodeJson(value: unknown): string {
  const result = (value as { result?: unknown } | null | undefined)?.result;
  if (result instanceof PreparedJson) {
    const text = preparedReply(value as Record<string, unknown>, result);
    if (text !== undefined) return text;
  }
  const outer = met;
  const texts: string[] = [];
  met = texts;
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    met = outer;
  }
  if (texts.length === 0) return text;
  // A string of the message equal to the mark: splicing could misplace a text, so serialise the slow way.
  return splice(text, texts) ?? JSON.stringify(value);
}

/** Replaces the marks in `text` by `texts`, in order; undefined unless there are exactly as many marks. */
function splice(text: string, texts: readonly string[]): string | undefined {
  let out = '';
  let from = 0;
  for (const json of texts) {
    const at = text.indexOf(QUOTED_MARK, from);
    if (at < 0) return undefined;
    out += text.slice(from, at) + json;
    from = at + QUOTED_MARK.length;
  }
  if (text.indexOf(QUOTED_MARK, from) >= 0) return undefined;
  return out + text.slice(from);
}

/**
 * Raw JSON in answers: a value that already exists as JSON text (a C plugin's answer) goes into the message
 * text as it is, instead of being parsed and serialised again. Transports write messages with `encodeJson`,
 * which splices each `RawJson` in; anything else that serialises a message (`JSON.stringify`) still gets the
 * right value, through `toJSON`, at the cost of a parse.
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

/** `JSON.stringify(value)`, with every `RawJson` in it written as its text. */
export function encodeJson(value: unknown): string {
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

/**
 * The one masking of credentials in text, run on raw text before it is encoded anywhere (a JSON log line, an
 * error message, a notification): values registered as secrets, JSON Web Tokens, `Bearer`/`Basic` credentials,
 * `Authorization:`/`Cookie:` header values, URL passwords and `password:`/`secret=`/`api_key`-style values become
 * `[REDACTED]`, wherever they stand: at the start of a line, after a letter, inside a word. A stream of text
 * written in pieces (a process's stderr) is masked through `stream()`, which holds back the end of each piece
 * until it is known that no credential continues into the next one, within a bounded tail.
 */

export const REDACTED = '[REDACTED]';

/** One credential found: `[keep, end)` is what must not be cut apart, `[start, end)` what is replaced. */
interface Found {
  readonly keep: number;
  readonly start: number;
  readonly end: number;
}

/** A shape of credential: the regex finds it, the group it names is the part replaced (else all of it). */
interface Shape {
  readonly regex: RegExp;
  readonly group: number;
  readonly accept?: (value: string) => boolean;
}

/**
 * Key words whose value is a credential (`DB_PASSWORD=…`, `client_secret: …`, `"apiKey":"…"`), wherever they stand
 * but in a file path (`/etc/app/tokens:3: …` names a file and a line).
 */
const KEY =
  '(?<![/.\\\\])(?:password|passwd|passphrase|secret|api[-_]?key|access[-_]?key|private[-_]?key|token|credentials?)[\\w.-]*';

const SHAPES: readonly Shape[] = [
  // Header lines: the whole value, to the end of the line.
  {
    regex: /((?:proxy-)?authori[sz]ation|set-cookie|cookie|x-api-key)(["']?[ \t]*:[ \t]*)([^\r\n]+)/gi,
    group: 3,
  },
  // `key: value` to the end of the line, or a quoted value; `key=value` up to a separator.
  {
    regex: new RegExp(`(${KEY})(["']?[ \\t]*:[ \\t]*)("[^"\\r\\n]*"|'[^'\\r\\n]*'|[^\\r\\n]+)`, 'gi'),
    group: 3,
  },
  {
    regex: new RegExp(`(${KEY})(["']?[ \\t]*=[ \\t]*)("[^"\\r\\n]*"|'[^'\\r\\n]*'|[^\\s&,;"']+)`, 'gi'),
    group: 3,
  },
  { regex: /(bearer)([ \t]+)([A-Za-z0-9\-._~+/]{8,}=*)/gi, group: 3 },
  // `Basic` is a common word: its value must look like base64 (whole quads, both cases).
  {
    regex: /(basic)([ \t]+)([A-Za-z0-9+/]{8,}={0,2})/gi,
    group: 3,
    accept: (v) => v.length % 4 === 0 && /[A-Z]/.test(v) && /[a-z0-9]/.test(v),
  },
  // JSON Web Tokens: three base64url parts, the first a JSON object (`{"` and `{ ` both encode to `ey`).
  { regex: /ey[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g, group: 0 },
  // Passwords in URLs (`redis://user:pw@host`).
  { regex: /(\/\/[^:/@\s]*:)([^@/\s]+)(@)/g, group: 2 },
];

/** Secrets shorter than this are not registered (they would mask ordinary words). */
const MIN_SECRET = 4;
/** A stream holds at most this much text without a line break before it writes some of it. */
const MAX_HELD = 64 * 1024;
/** What it keeps back then: the part of a line a credential could still be growing into. */
const TAIL = 4 * 1024;

/** Where group `n` of a match starts (groups 1 to n-1 cover the match up to it; group 0 is the match). */
function groupStart(match: RegExpExecArray, n: number): number {
  if (n === 0) return match.index;
  let at = match.index;
  for (let i = 1; i < n; i++) at += (match[i] ?? '').length;
  return at;
}

/** Masks credentials in text; `add` registers exact values (tokens, keys) to mask besides the shapes. */
export class SecretMasker {
  #secrets: string[] = [];

  /** Mask `value` wherever it appears from now on (values under 4 characters, or holding a line break, are not). */
  add(value: string | undefined): void {
    if (value === undefined || value.length < MIN_SECRET || /[\r\n]/.test(value)) return;
    if (this.#secrets.includes(value)) return;
    // The longest first, so that a secret holding another is masked whole.
    this.#secrets = [...this.#secrets, value].sort((a, b) => b.length - a.length);
  }

  /** `text` with every credential replaced by `[REDACTED]`. */
  mask(text: string): string {
    return replace(text, this.#find(text), text.length);
  }

  /** A masker for text that arrives in pieces: `write` returns what can be shown so far, `end` the rest. */
  stream(): MaskedStream {
    let held = '';
    /** A credential longer than the tail was written masked: the rest of its line is not written at all. */
    let dropping = false;
    return {
      write: (piece) => {
        if (dropping) {
          const next = piece.indexOf('\n');
          if (next < 0) return '';
          dropping = false;
          piece = piece.slice(next);
        }
        held += piece;
        const lineEnd = held.lastIndexOf('\n') + 1;
        let upTo = lineEnd;
        let found: Found[] | undefined;
        if (lineEnd === 0) {
          if (held.length <= MAX_HELD) return '';
          found = this.#find(held);
          upTo = cutBefore(held, found);
          dropping = upTo === held.length && found.some((f) => f.end === held.length);
        }
        const part = held.slice(0, upTo);
        held = held.slice(upTo);
        return replace(part, found ?? this.#find(part), upTo);
      },
      end: () => {
        const rest = held;
        held = '';
        return this.mask(rest);
      },
    };
  }

  #find(text: string): Found[] {
    const found: Found[] = [];
    for (const secret of this.#secrets) {
      for (let at = text.indexOf(secret); at >= 0; at = text.indexOf(secret, at + secret.length))
        found.push({ keep: at, start: at, end: at + secret.length });
    }
    for (const shape of SHAPES) {
      shape.regex.lastIndex = 0;
      for (let m = shape.regex.exec(text); m !== null; m = shape.regex.exec(text)) {
        const value = m[shape.group] ?? '';
        if (shape.accept !== undefined && !shape.accept(value)) continue;
        const start = groupStart(m, shape.group);
        found.push({ keep: m.index, start, end: start + value.length });
      }
    }
    return found.sort((a, b) => a.start - b.start);
  }
}

/** Text that arrives in pieces, masked: what `write` returns is safe to show; `end` returns what was held. */
export interface MaskedStream {
  write(piece: string): string;
  end(): string;
}

/** `text[0, upTo)` with the ranges of `found` that end by `upTo` replaced (overlapping ones as one). */
function replace(text: string, found: readonly Found[], upTo: number): string {
  let out = '';
  let at = 0;
  for (const f of found) {
    if (f.end > upTo) continue;
    if (f.end <= at) continue;
    out += text.slice(at, Math.max(at, f.start));
    if (f.start >= at) out += REDACTED;
    at = f.end;
  }
  return out + text.slice(at, upTo);
}

/**
 * Where to cut a long run of text without a line break: before its last `TAIL` characters (a credential may still
 * be growing there), after a space or tab when there is one, and never inside a credential found (with its key).
 * When one credential fills it all, the whole text is written, masked (and `stream` drops the rest of its line).
 */
function cutBefore(text: string, found: readonly Found[]): number {
  const target = text.length - TAIL;
  const blank = Math.max(text.lastIndexOf(' ', target - 1), text.lastIndexOf('\t', target - 1));
  let cut = blank >= 0 ? blank + 1 : target;
  for (let moved = true; moved; ) {
    moved = false;
    for (const f of found) {
      if (f.keep < cut && cut < f.end) {
        cut = f.keep;
        moved = true;
      }
    }
  }
  return cut > 0 ? cut : text.length;
}

const shapesOnly = new SecretMasker();

/** `text` with every credential of a known shape replaced by `[REDACTED]` (no registered secrets). */
export function maskSecrets(text: string): string {
  return shapesOnly.mask(text);
}

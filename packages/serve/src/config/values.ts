// How the value of one serve option is read, the same from a flag's text and from the config file's YAML value:
// each reader takes the raw value and the option's name (`--redis-timeout` or `mcp.redis_timeout_ms`) and either
// returns the value or throws an Error whose message names the option and what was wrong, in one wording for both.
/** Reads one option's value; `name` is how the user wrote the option, for the message. */
export type Reader<T> = (raw: unknown, name: string) => T;

const shown = (raw: unknown): string => JSON.stringify(raw) ?? String(raw);

/** A whole number from a YAML number or a string of digits (a flag's text), else undefined. */
function wholeNumber(raw: unknown): number | undefined {
  const n =
    typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** Milliseconds, at least 1. */
export const positiveMs: Reader<number> = (raw, name) => {
  const n = wholeNumber(raw);
  if (n === undefined || n === 0)
    throw new Error(`${name} expects a positive whole number of milliseconds, got ${shown(raw)}`);
  return n;
};

/** A whole number where 0 means "no limit". */
export const limitOrZero: Reader<number> = (raw, name) => {
  const n = wholeNumber(raw);
  if (n === undefined) throw new Error(`${name} expects a whole number (0: no limit), got ${shown(raw)}`);
  return n;
};

/** `[HOST:]PORT`; HOST defaults to 127.0.0.1, brackets allowed around IPv6 (`[::1]:8080`). */
export const address: Reader<{ host: string; port: number }> = (raw, name) => {
  const text = typeof raw === 'string' || typeof raw === 'number' ? String(raw) : undefined;
  const match = text === undefined ? null : /^(?:(\[[^\]]+\]|[^:]+):)?(\d+)$/.exec(text.trim());
  if (!match) throw new Error(`${name} expects [HOST:]PORT, got ${shown(raw)}`);
  const port = Number(match[2]);
  if (port > 65535) throw new Error(`${name} port must be 0-65535, got ${port}`);
  const host = match[1] ? match[1].replace(/^\[(.*)\]$/, '$1') : '127.0.0.1';
  return { host, port };
};

/** A Redis URL (`redis://` or `rediss://`). */
export const redisUrl: Reader<string> = (raw, name) => {
  if (typeof raw !== 'string' || !/^rediss?:\/\/./.test(raw))
    throw new Error(`${name} expects a URL starting with redis:// or rediss://, got ${shown(raw)}`);
  return raw;
};

/** A switch: a flag that is there, or `true`/`false` in the file. */
export const onOff: Reader<boolean> = (raw, name) => {
  if (typeof raw !== 'boolean') throw new Error(`${name} expects true or false, got ${shown(raw)}`);
  return raw;
};

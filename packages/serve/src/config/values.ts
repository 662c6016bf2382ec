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

/**
 * A list of `item`s: a YAML list, or a flag's values (repeated, each of them possibly comma-separated). Each
 * element's refusal names the option and the element.
 */
function listOf<T>(what: string, item: (text: string) => T | undefined): Reader<readonly T[]> {
  return (raw, name) => {
    const texts = Array.isArray(raw) && raw.every((v) => typeof v === 'string') ? raw : undefined;
    if (texts === undefined) throw new Error(`${name} expects a list of ${what}, got ${shown(raw)}`);
    return texts
      .flatMap((text) => text.split(','))
      .map((text) => text.trim())
      .map((text) => {
        const value = text === '' ? undefined : item(text);
        if (value === undefined) throw new Error(`${name} expects a list of ${what}, got ${shown(text)}`);
        return value;
      });
  };
}

/** `Host` header values: a host name or address, with an optional port (`api.example.com`, `[::1]:8080`). */
export const hostList: Reader<readonly string[]> = listOf('host names (HOST or HOST:PORT)', (text) =>
  /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/.test(text) ? text.toLowerCase() : undefined,
);

/** `Origin` header values: a scheme, a host and an optional port, nothing after (`https://app.example.com`). */
export const originList: Reader<readonly string[]> = listOf('origins (SCHEME://HOST[:PORT])', (text) => {
  try {
    const url = new URL(text);
    return url.origin !== 'null' && url.origin === text.replace(/\/$/, '') ? url.origin : undefined;
  } catch {
    return undefined;
  }
});

/** Bytes: a whole number where 0 means "no limit". */
export const bytesOrZero: Reader<number> = (raw, name) => {
  const n = wholeNumber(raw);
  if (n === undefined)
    throw new Error(`${name} expects a whole number of bytes (0: no limit), got ${shown(raw)}`);
  return n;
};

/** Log levels (RFC 5424 order) and the scrubbing of credential-like data before it is sent. */

import { maskSecrets, REDACTED } from './mask.js';
import type { LogLevel } from './types.js';

const LEVELS: Readonly<Record<LogLevel, number>> = {
  debug: 0,
  info: 1,
  notice: 2,
  warning: 3,
  error: 4,
  critical: 5,
  alert: 6,
  emergency: 7,
};

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && Object.hasOwn(LEVELS, value);
}

export function levelRank(level: LogLevel): number {
  return LEVELS[level];
}

const SECRET_KEY =
  /pass(?:word|wd|phrase)?|token|secret|api[-_ ]?key|authori[sz]ation|bearer|credential|cookie/i;

/** A copy of `data` with credential-like keys masked and every string masked (`maskSecrets`). */
export function redact(data: unknown, depth = 0): unknown {
  if (typeof data === 'string') return maskSecrets(data);
  if (typeof data !== 'object' || data === null) return data;
  if (depth > 32) return REDACTED;
  if (Array.isArray(data)) return data.map((item) => redact(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(data)) {
    const value = (data as Record<string, unknown>)[key];
    out[key] =
      SECRET_KEY.test(key) && value !== null && value !== undefined ? REDACTED : redact(value, depth + 1);
  }
  return out;
}

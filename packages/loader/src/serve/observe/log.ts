/**
 * Serve's own log lines, on stderr: the plain `entropic-mcp serve: ...` lines, or with `--log-format json` one
 * JSON object a line (`time`, `level`, `msg`, fields) carrying the `trace_id` and `span_id` of the request the
 * line concerns. Nothing secret is written: fields with credential-like keys are masked (the server's own
 * redaction), and every line is scrubbed of the values registered as secrets (tokens, keys, passwords, OTLP
 * header credentials), URL passwords, bearer credentials and JSON Web Tokens, wherever they appear.
 */

import { basename } from 'node:path';
import { REDACTED, redact } from '@entropic-mcp/server';
import { isSpanContextValid, type SpanContext, trace } from '@opentelemetry/api';

export type LogFormat = 'text' | 'json';
export type LogLevel = 'info' | 'warn' | 'error';

export interface ServeLog {
  readonly format: LogFormat;
  /** A line; `span` names the request it concerns when it is not the active one. */
  log(level: LogLevel, msg: string, fields?: Record<string, unknown>, span?: SpanContext): void;
  /** A block of text as it is (the start-up report); in JSON one line with the text as `msg`. */
  report(text: string): void;
  /** Never write `value` (a token, a password): it is masked wherever it appears from now on. */
  secret(value: string | undefined): void;
  /**
   * What an isolated plugin's host wrote to its stderr (or, through the relay, in-process plugins to fd 2): as it
   * is in text, one JSON line per line in JSON, `plugin` being the base name of `path`.
   */
  readonly pluginOutput: (path: string, text: string) => void;
  /** Serve's own lines go to `write` from now on (the relay of in-process plugins' stderr took fd 2). */
  redirect(write: (line: string) => void): void;
  /** `listener` gets every secret registered so far, then each one registered later. */
  watchSecrets(listener: (value: string) => void): void;
}

/** Passwords in URLs (`redis://user:pw@host`, an OTLP endpoint with credentials). */
const URL_PASSWORD = /(\/\/[^:/@\s]*:)[^@/\s]+@/g;
/** A credential after `Bearer`/`Basic` (at least 16 token characters, so prose such as "bearer tokens" stays). */
const CREDENTIAL = /\b(bearer|basic)(\s+)[A-Za-z0-9\-._~+/]{16,}=*/gi;
/** A JSON Web Token anywhere. */
const JWT = /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g;

export function createServeLog(
  format: LogFormat,
  output: (line: string) => void = (line) => process.stderr.write(line),
): ServeLog {
  let write = output;
  const secrets = new Set<string>();
  const watchers: ((value: string) => void)[] = [];
  const keep = (value: string) => {
    if (secrets.has(value)) return;
    secrets.add(value);
    for (const watcher of watchers) watcher(value);
  };
  const scrub = (line: string): string => {
    let out = line
      .replace(URL_PASSWORD, `$1${REDACTED}@`)
      .replace(CREDENTIAL, `$1$2${REDACTED}`)
      .replace(JWT, REDACTED);
    for (const secret of secrets) out = out.split(secret).join(REDACTED);
    return out;
  };
  const emit = (
    level: LogLevel,
    msg: string,
    fields: Record<string, unknown> | undefined,
    span: SpanContext | undefined,
  ) => {
    if (format === 'text') {
      // The message says it all for a person; the fields are for machines (JSON).
      write(scrub(`entropic-mcp serve: ${msg}\n`));
      return;
    }
    const context = span ?? trace.getActiveSpan()?.spanContext();
    const record: Record<string, unknown> = { time: new Date().toISOString(), level, msg };
    if (context !== undefined && isSpanContextValid(context)) {
      record.trace_id = context.traceId;
      record.span_id = context.spanId;
    }
    if (fields !== undefined) Object.assign(record, redact(fields) as Record<string, unknown>);
    write(`${scrub(JSON.stringify(record))}\n`);
  };
  return {
    format,
    log: (level, msg, fields, span) => emit(level, msg, fields, span),
    report: (text) => {
      if (format === 'text') write(scrub(text));
      else emit('info', text.replace(/^entropic-mcp serve: /, '').trimEnd(), undefined, undefined);
    },
    pluginOutput: (path, text) => {
      if (format === 'text') {
        write(scrub(text));
        return;
      }
      const plugin = basename(path);
      for (const line of text.split('\n')) {
        if (line.trim() !== '') emit('info', line, { plugin, stream: 'stderr' }, undefined);
      }
    },
    secret: (value) => {
      if (value === undefined || value.length < 4) return;
      keep(value);
      const escaped = JSON.stringify(value).slice(1, -1);
      if (escaped !== value) keep(escaped);
    },
    redirect: (next) => {
      write = next;
    },
    watchSecrets: (listener) => {
      watchers.push(listener);
      for (const value of secrets) listener(value);
    },
  };
}

/**
 * Serve's own log lines, on stderr: the plain `entropic-mcp serve: ...` lines, or with `--log-format json` one
 * JSON object a line (`time`, `level`, `msg`, fields) carrying the `trace_id` and `span_id` of the request the
 * line concerns. Nothing secret is written: fields with credential-like keys are masked (the server's own
 * redaction), and every text is masked before it is encoded (`SecretMasker` of the server: the values registered
 * as secrets, such as tokens, keys, passwords and OTLP header credentials, and every shape of credential, wherever
 * they appear). In text, nothing a plugin wrote can pass for a line of serve's own.
 */

import { basename } from 'node:path';
import { otelApi, otelInUse } from '@entropic-mcp/loader/internal';
import { redact, SecretMasker } from '@entropic-mcp/server';
import type { SpanContext } from '@opentelemetry/api';

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
   * What an isolated plugin's host wrote to its stderr (or, through the relay, in-process plugins to fd 2), masked:
   * in text each line tagged `[plugin NAME]` with its control characters escaped, in JSON one line per line,
   * `plugin` being the base name of `path`.
   */
  readonly pluginOutput: (path: string, text: string) => void;
  /** Serve's own lines go to `write` from now on (the relay of in-process plugins' stderr took fd 2). */
  redirect(write: (line: string) => void): void;
  /** `listener` gets every secret registered so far, then each one registered later. */
  watchSecrets(listener: (value: string) => void): void;
  /**
   * The masking of every line: the secrets registered here and every shape of credential. Plugin hosts' stderr
   * passes through streams of it (`LoadOptions.masker`) before it reaches `pluginOutput`.
   */
  readonly masker: SecretMasker;
}

/**
 * Characters a terminal acts on or that could let one line pass for another (C0 and C1 controls but the tab, DEL,
 * Unicode line separators and bidirectional overrides), and the backslash that escapes them.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: this is the list of them
const UNSAFE = /[\\\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `line` with every unsafe character written as an escape (`\x1b`, `\r`, `\u202e`, `\\`). */
export function escapeControls(line: string): string {
  return line.replace(UNSAFE, (c) => {
    if (c === '\\') return '\\\\';
    if (c === '\r') return '\\r';
    const code = c.charCodeAt(0);
    return code < 0x100
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** A copy of `value` with every string in it masked. */
function maskDeep(value: unknown, masker: SecretMasker, depth = 0): unknown {
  if (typeof value === 'string') return masker.mask(value);
  if (typeof value !== 'object' || value === null || depth > 32) return value;
  if (Array.isArray(value)) return value.map((item) => maskDeep(item, masker, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = maskDeep(item, masker, depth + 1);
  return out;
}

export function createServeLog(
  format: LogFormat,
  output: (line: string) => void = (line) => process.stderr.write(line),
): ServeLog {
  let write = output;
  const masker = new SecretMasker();
  const secrets = new Set<string>();
  const watchers: ((value: string) => void)[] = [];
  const emit = (
    level: LogLevel,
    msg: string,
    fields: Record<string, unknown> | undefined,
    span: SpanContext | undefined,
  ) => {
    if (format === 'text') {
      // The message says it all for a person; the fields are for machines (JSON). Lines after the first are
      // indented, so that nothing in a message (a plugin's stderr quoted in a crash) reads as a line of serve's.
      const lines = masker.mask(msg).split('\n').map(escapeControls);
      write(`entropic-mcp serve: ${lines.join('\n  ')}\n`);
      return;
    }
    // With no span given and nothing registered with the OpenTelemetry API there is no span to name (and the API
    // is not loaded).
    const api = span === undefined ? otelInUse() : otelApi();
    const context = span ?? api?.trace.getActiveSpan()?.spanContext();
    const record: Record<string, unknown> = { time: new Date().toISOString(), level, msg: masker.mask(msg) };
    if (context !== undefined && api?.isSpanContextValid(context)) {
      record.trace_id = context.traceId;
      record.span_id = context.spanId;
    }
    if (fields !== undefined) Object.assign(record, maskDeep(redact(fields), masker));
    write(`${JSON.stringify(record)}\n`);
  };
  return {
    format,
    masker,
    log: (level, msg, fields, span) => emit(level, msg, fields, span),
    report: (text) => {
      if (format === 'text') write(masker.mask(text));
      else emit('info', text.replace(/^entropic-mcp serve: /, '').trimEnd(), undefined, undefined);
    },
    pluginOutput: (path, text) => {
      if (text === '') return;
      const plugin = basename(path);
      const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
      if (format === 'text') {
        // Each line marked as the plugin's, its controls escaped: it cannot pass for one of serve's lines.
        const tag = `[plugin ${escapeControls(plugin)}]`;
        write(lines.map((line) => `${tag} ${escapeControls(masker.mask(line))}\n`).join(''));
        return;
      }
      for (const line of lines) {
        if (line.trim() !== '') emit('info', line, { plugin, stream: 'stderr' }, undefined);
      }
    },
    secret: (value) => {
      if (value === undefined || secrets.has(value)) return;
      secrets.add(value);
      masker.add(value);
      for (const watcher of watchers) watcher(value);
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

/**
 * The plugin context on Node's side of the wire (`native/wire/context.h`): the caller's metadata an `F` request
 * carries to the instance, and the frames a running call sends back through its context (progress, logs, a
 * structured result), decoded for the call they belong to.
 */
import { type LogLevelName, logLevelName } from '../base/abi.js';
import type { CallerInfo, CallVoice } from '../base/types.js';
import { Status } from './frames.js';

const UNIT = '\x1f';
const RECORD = '\x1e';
/** A metadata value without control characters (nor DEL), so neither separator can appear in one. */
function clean(value: string): string {
  let out = '';
  for (const ch of value) {
    const code = ch.charCodeAt(0);
    out += code < 0x20 || code === 0x7f ? '\ufffd' : ch;
  }
  return out;
}

/**
 * The third part of an `F` request: `key US value RS ...` (`context.h`): the caller, and `ll`, the log messages
 * the call may send a second (0: no limit).
 */
export function callerMeta(caller: CallerInfo | undefined, logLimit: number): string {
  const pairs: string[] = [`ll${UNIT}${logLimit}`];
  const add = (key: string, value: string | undefined) => {
    if (value !== undefined) pairs.push(`${key}${UNIT}${clean(value)}`);
  };
  if (caller === undefined) return pairs[0] as string;
  add('sub', caller.subject);
  add('scp', caller.scopes === undefined ? undefined : caller.scopes.join(' '));
  add('pv', caller.protocolVersion);
  add('rid', caller.requestId === undefined ? undefined : JSON.stringify(caller.requestId));
  if (caller.headers !== undefined) {
    for (const [name, value] of Object.entries(caller.headers)) add(`h:${clean(name.toLowerCase())}`, value);
  }
  return pairs.join(RECORD);
}

/** Log data as the plugin gave it: its JSON value, or the text itself when it is not JSON. */
function logData(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** What the running call said; `structured` keeps the JSON text of a structured result until the answer comes. */
export interface Voiced {
  voice: CallVoice | undefined;
  structured: string | undefined;
}

/** Hands one frame the call sent through its context to where it goes. */
export function hearVoice(call: Voiced, status: number, buf: Buffer, start: number, end: number): void {
  if (status === Status.structured) {
    call.structured = buf.toString('utf8', start, end);
    return;
  }
  const voice = call.voice;
  if (voice === undefined) return;
  if (status === Status.progress && end - start >= 16) {
    const total = buf.readDoubleLE(start + 8);
    const message = end > start + 16 ? buf.toString('utf8', start + 16, end) : undefined;
    voice.progress?.(buf.readDoubleLE(start), total >= 0 ? total : undefined, message);
  } else if (status === Status.log && end - start >= 2) {
    const level: LogLevelName | undefined = logLevelName(buf[start]!);
    const nul = buf.indexOf(0, start + 1);
    if (level === undefined || nul < 0 || nul >= end) return;
    const logger = nul > start + 1 ? buf.toString('utf8', start + 1, nul) : undefined;
    voice.log?.(level, logData(buf.toString('utf8', nul + 1, end)), logger);
  }
}

/**
 * The plugin context seen from the server: a call to a plugin that defines `entropic_mcp_server_execute_with_context`
 * carries the handler context's caller (subject, scopes, protocol revision, request id, the headers the operator
 * lets plugins read), and what the plugin says while it runs goes to the handler context (`ctx.progress`,
 * `ctx.log`). Plugins without the context never reach this file.
 */
import type { CallerInfo, CallOptions, CallVoice } from '../base/types.js';
import type { BridgeToolContext } from './types.js';

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Who is calling, from the handler context: `ctx.auth` as the server's bearer check leaves it (`TokenInfo`). */
function callerOf(ctx: BridgeToolContext, headers: readonly string[]): CallerInfo {
  const auth = ctx.auth as { subject?: unknown; scopes?: unknown } | null | undefined;
  const scopes = Array.isArray(auth?.scopes)
    ? auth.scopes.filter((s): s is string => typeof s === 'string')
    : undefined;
  const allowed: Record<string, string> = {};
  for (const name of headers) {
    const value = ctx.header?.(name);
    if (value !== undefined) allowed[name] = value;
  }
  const caller: { -readonly [K in keyof CallerInfo]: CallerInfo[K] } = { headers: allowed };
  const subject = stringOr(auth?.subject);
  if (subject !== undefined) caller.subject = subject;
  if (scopes !== undefined) caller.scopes = scopes;
  if (ctx.protocolVersion !== undefined) caller.protocolVersion = ctx.protocolVersion;
  if (typeof ctx.requestId === 'string' || typeof ctx.requestId === 'number')
    caller.requestId = ctx.requestId;
  return caller;
}

/** Progress and logs of the call, to the handler context; a log without a logger is the plugin's. */
function voiceOf(ctx: BridgeToolContext, plugin: string): CallVoice {
  return {
    progress: (done, total, message) => {
      ctx.progress?.(done, total, message);
    },
    log: (level, data, logger) => ctx.log?.(level, data, logger ?? plugin),
  };
}

/** `options` of one call with the plugin context's parts added. */
export function withContext(
  options: CallOptions,
  ctx: BridgeToolContext,
  plugin: string,
  headers: readonly string[],
): CallOptions {
  return { ...options, voice: voiceOf(ctx, plugin), caller: callerOf(ctx, headers) };
}

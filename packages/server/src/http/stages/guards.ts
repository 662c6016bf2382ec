/**
 * Header checks of the Streamable HTTP endpoint. Each returns undefined when the request passes,
 * or the status and message of the refusal.
 */

import type { ResolvedHandlerOptions } from '../options.js';
import type { Refusal } from '../seam/refusal.js';
import type { RequestView } from '../seam/view.js';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** `host[:port]` → host (IPv6 literals keep their brackets), lower-cased. */
export function hostnameOf(host: string): string {
  const lower = host.toLowerCase();
  if (lower.startsWith('[')) {
    const end = lower.indexOf(']');
    return end < 0 ? lower : lower.slice(0, end + 1);
  }
  const colon = lower.indexOf(':');
  return colon < 0 ? lower : lower.slice(0, colon);
}

function hostAllowed(host: string, allowed: readonly string[] | undefined): boolean {
  const lower = host.toLowerCase();
  if (allowed === undefined) return LOOPBACK.has(hostnameOf(lower));
  for (const entry of allowed) {
    const e = entry.toLowerCase();
    if (e === lower || e === hostnameOf(lower)) return true;
  }
  return false;
}

/** DNS-rebinding and cross-origin protection: 403 when `Host` or `Origin` is not allowed. */
export function checkHostAndOrigin(req: RequestView, options: ResolvedHandlerOptions): Refusal | undefined {
  const host = req.header('host');
  if (options.dnsRebindingProtection || options.allowedHosts !== undefined) {
    if (host === undefined || !hostAllowed(host, options.allowedHosts)) {
      return {
        status: 403,
        code: -32000,
        message: `Forbidden: Host header ${JSON.stringify(host ?? '')} is not allowed`,
      };
    }
  }
  const origin = req.header('origin');
  if (origin === undefined) return undefined;
  const corsOrigins = options.cors?.origins;
  if (corsOrigins === '*') return undefined;
  const allowed = options.allowedOrigins ?? corsOrigins;
  if (allowed !== undefined) {
    if (allowed.includes(origin)) return undefined;
  } else if (originMatches(origin, options.dnsRebindingProtection ? undefined : host)) {
    return undefined;
  }
  return { status: 403, code: -32000, message: `Forbidden: Origin ${JSON.stringify(origin)} is not allowed` };
}

/** With no `host`, only loopback origins pass; otherwise only the origin naming the same host. */
function originMatches(origin: string, host: string | undefined): boolean {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (host === undefined) return LOOPBACK.has(parsed.hostname.toLowerCase());
  return parsed.host.toLowerCase() === host.toLowerCase();
}

/** Whether an Accept header admits `type` (exact, `type/*` or `*\/*`). */
export function accepts(accept: string | undefined, type: string): boolean {
  if (accept === undefined) return false;
  if (accept.includes(type) || accept.includes('*/*')) return true;
  return accept.includes(`${type.slice(0, type.indexOf('/'))}/*`);
}

export function checkPostHeaders(req: RequestView): Refusal | undefined {
  const accept = req.header('accept');
  if (!accepts(accept, 'application/json') || !accepts(accept, 'text/event-stream')) {
    return {
      status: 406,
      code: -32000,
      message: 'Not Acceptable: the Accept header must list both application/json and text/event-stream',
    };
  }
  const type = req.header('content-type');
  if (type === undefined || !/^application\/json\s*(;|$)/i.test(type)) {
    return {
      status: 415,
      code: -32000,
      message: 'Unsupported Media Type: Content-Type must be application/json',
    };
  }
  return undefined;
}

/** `MCP-Protocol-Version`: absent means 2025-03-26 (the spec's default); unknown values get 400. */
export function checkProtocolVersion(
  req: RequestView,
  supported: readonly string[],
): Refusal | string | undefined {
  const version = req.header('mcp-protocol-version');
  if (version === undefined) return undefined;
  if (supported.includes(version)) return version;
  return {
    status: 400,
    code: -32000,
    message: `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(version)} (supported: ${supported.join(', ')})`,
  };
}

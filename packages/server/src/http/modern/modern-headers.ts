/**
 * Header checks of 2026-07-28 requests over Streamable HTTP: `MCP-Protocol-Version` equal to the
 * `_meta` version, `Mcp-Method` on every request, `Mcp-Name` on tools/call, resources/read and
 * prompts/get (and on custom methods that name a field for it), and the `Mcp-Param-*` headers a tool declares with `x-mcp-header`. Values in the
 * `=?base64?…?=` form are decoded first. Every failure is -32020 (HTTP 400). No I/O here.
 */

import { envelopeVersion } from '../../core/modern/envelope.js';
import type { Refusal } from '../seam/refusal.js';
import type { RequestView } from '../seam/view.js';

const NAMED: Record<string, 'name' | 'uri'> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** One `x-mcp-header` parameter of a tool: its header name and the property path in arguments. */
export interface HeaderParam {
  readonly header: string;
  readonly path: readonly string[];
  readonly type: string | undefined;
}

function mismatch(message: string): Refusal {
  return { status: 400, code: -32020, message: `Header mismatch: ${message}` };
}

/** A header value as sent: decoded from `=?base64?…?=`, literal otherwise; undefined if undecodable. */
export function decodeHeaderValue(raw: string): string | undefined {
  const value = raw.trim();
  if (!(value.startsWith('=?base64?') && value.endsWith('?=') && value.length >= 11)) return value;
  const encoded = value.slice(9, -2);
  if (!BASE64.test(encoded)) return undefined;
  try {
    const binary = atob(encoded);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The `x-mcp-header` parameters of a tool's input schema (properties reachable by `properties` only). */
export function headerParams(inputSchema: unknown): HeaderParam[] {
  const out: HeaderParam[] = [];
  const walk = (schema: unknown, path: string[]): void => {
    if (typeof schema !== 'object' || schema === null) return;
    const properties = (schema as { properties?: unknown }).properties;
    if (typeof properties !== 'object' || properties === null) return;
    for (const [key, sub] of Object.entries(properties)) {
      if (typeof sub !== 'object' || sub === null) continue;
      const name = (sub as Record<string, unknown>)['x-mcp-header'];
      const type = (sub as { type?: unknown }).type;
      if (typeof name === 'string' && name !== '') {
        out.push({
          header: `mcp-param-${name.toLowerCase()}`,
          path: [...path, key],
          type: typeof type === 'string' ? type : undefined,
        });
      }
      walk(sub, [...path, key]);
    }
  };
  walk(inputSchema, []);
  return out;
}

function valueAt(args: unknown, path: readonly string[]): unknown {
  let value = args;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function sameValue(header: string, body: unknown): boolean {
  if (typeof body === 'number') return header.trim() !== '' && Number(header) === body;
  if (typeof body === 'boolean') return header === String(body);
  return header === body;
}

/**
 * Check a modern request's headers against its body. `toolParams` gives the `x-mcp-header`
 * parameters of a tool by name (undefined for an unknown tool, which the core then refuses);
 * `nameParam` the params field a custom method mirrors in `Mcp-Name`, if any.
 */
export function checkModernHeaders(
  view: RequestView,
  message: { method: string; params?: Record<string, unknown> },
  toolParams: (name: string) => readonly HeaderParam[] | undefined,
  nameParam: (method: string) => string | undefined = () => undefined,
): Refusal | undefined {
  const bodyVersion = envelopeVersion(message.params);
  const headerVersion = view.header('mcp-protocol-version')?.trim();
  if (headerVersion === undefined) return mismatch('the MCP-Protocol-Version header is required');
  if (bodyVersion !== undefined && headerVersion !== bodyVersion) {
    return mismatch(
      `MCP-Protocol-Version header value '${headerVersion}' does not match body value '${bodyVersion}'`,
    );
  }
  const method = view.header('mcp-method')?.trim();
  if (method === undefined) return mismatch('the Mcp-Method header is required');
  if (method !== message.method) {
    return mismatch(`Mcp-Method header value '${method}' does not match body value '${message.method}'`);
  }
  const field = NAMED[message.method] ?? nameParam(message.method);
  if (field === undefined) return undefined;
  const rawName = view.header('mcp-name');
  if (rawName === undefined) return mismatch(`the Mcp-Name header is required on ${message.method}`);
  const name = decodeHeaderValue(rawName);
  if (name === undefined) return mismatch('Mcp-Name header value is not valid =?base64?…?= text');
  const bodyName = message.params?.[field];
  if (name !== bodyName) {
    return mismatch(`Mcp-Name header value '${name}' does not match body value '${String(bodyName)}'`);
  }
  if (message.method !== 'tools/call') return undefined;
  const params = toolParams(name) ?? [];
  for (const param of params) {
    const body = valueAt(message.params?.arguments, param.path);
    const raw = view.header(param.header);
    const shown = `Mcp-Param-${param.header.slice(10)}`;
    if (body === undefined || body === null) {
      if (raw !== undefined)
        return mismatch(`${shown} header is present but arguments.${param.path.join('.')} is not`);
      continue;
    }
    if (raw === undefined)
      return mismatch(`${shown} header is required: arguments.${param.path.join('.')} is set`);
    const value = decodeHeaderValue(raw);
    if (value === undefined) return mismatch(`${shown} header value is not valid =?base64?…?= text`);
    if (!sameValue(value, body)) {
      return mismatch(`${shown} header value '${value}' does not match body value '${String(body)}'`);
    }
  }
  return undefined;
}

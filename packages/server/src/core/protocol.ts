/** Protocol revisions this server speaks, newest first, and the per-request protocol context. */

import type { ClientCapabilities, Implementation } from './types.js';

export const LATEST_PROTOCOL_VERSION = '2025-11-25';
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
];

/** The version the server answers with when a client asks for `requested`. */
export function negotiateVersion(requested: string): string {
  return SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/**
 * What the server knows about the client for one request. In the 2025 revisions it is fixed at
 * `initialize` and shared by every request of the connection; a revision that carries it in each
 * request's `_meta` builds one per request. Handlers read it as `ctx.client` and never learn which.
 */
export interface ClientContext {
  readonly protocolVersion: string;
  readonly capabilities: ClientCapabilities;
  readonly info: Implementation | undefined;
}

/** Whether JSON-RPC batches may be received under `version` (only the 2025-03-26 revision had them). */
export function batchesAllowed(version: string | undefined): boolean {
  return version === '2025-03-26';
}

/** Tool argument validation errors became tool results (isError) in 2025-11-25; -32602 before. */
export function toolInputErrorsAsResults(version: string): boolean {
  return version >= '2025-11-25';
}

/** The context of `initialize` and `ping` before a connection is initialized. */
export const PRE_INIT: ClientContext = Object.freeze({
  protocolVersion: LATEST_PROTOCOL_VERSION,
  capabilities: Object.freeze({}),
  info: undefined,
});

const fallbacks = new Map<string, ClientContext>();

/**
 * The context of a request served without a prior initialize (stateless HTTP): the version the transport
 * saw, no capabilities. One frozen object per version, shared by every connection.
 */
export function uninitializedClient(transportVersion: string | undefined): ClientContext {
  const version = negotiateVersion(transportVersion ?? LATEST_PROTOCOL_VERSION);
  let client = fallbacks.get(version);
  if (client === undefined) {
    client = Object.freeze({ protocolVersion: version, capabilities: Object.freeze({}), info: undefined });
    fallbacks.set(version, client);
  }
  return client;
}

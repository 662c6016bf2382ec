/** Helpers for 2026-07-28 requests: the `_meta` envelope and a peer that sends it on every request. */

import type { McpServer } from '../../src/core/server.js';
import { connectInMemory } from './in-memory.js';
import { type Message, Peer } from './peer.js';

export const MODERN = '2026-07-28';

/** The `_meta` of a modern request declaring `capabilities` (and, optionally, a log level). */
export function envelope(
  capabilities: Record<string, unknown> = {},
  logLevel?: string,
): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'test-client', version: '1.0.0' },
  };
  if (logLevel !== undefined) meta['io.modelcontextprotocol/logLevel'] = logLevel;
  return meta;
}

/** A peer over memory whose `modern` sends each request with the envelope. */
export class ModernPeer extends Peer {
  capabilities: Record<string, unknown> = {};

  modern(method: string, params: Record<string, unknown> = {}): Promise<Message> {
    return this.request(method, {
      ...params,
      _meta: { ...envelope(this.capabilities), ...(params._meta as object) },
    });
  }
}

export async function modernPeer(
  server: McpServer,
  capabilities: Record<string, unknown> = {},
): Promise<ModernPeer> {
  const { handle } = await connectInMemory(server);
  const peer = new ModernPeer(handle);
  peer.capabilities = capabilities;
  return peer;
}

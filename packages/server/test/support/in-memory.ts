/** A ClientHandle over the in-memory transport pair. */

import type { McpServer } from '../../src/core/server.js';
import type { ConnectOptions, Session } from '../../src/core/session.js';
import { createInMemoryTransportPair, type InMemoryTransportOptions } from '../../src/index.js';
import { type ClientHandle, type Message, Peer } from './peer.js';
import { MessageQueue } from './queue.js';

export async function connectInMemory(
  server: McpServer,
  options: InMemoryTransportOptions & ConnectOptions = {},
): Promise<{ handle: ClientHandle; session: Session }> {
  const [client, serverSide] = createInMemoryTransportPair(options);
  const queue = new MessageQueue();
  client.onmessage = (message) => queue.push(message as Message);
  client.onclose = () => queue.end();
  await client.start();
  const session = await server.connect(serverSide, options);
  const handle: ClientHandle = {
    send: (message) => client.send(message as Record<string, unknown>),
    sendRaw: (text) => serverSide.receiveText(text),
    next: () => queue.next(),
    close: () => client.close(),
  };
  return { handle, session };
}

/** Connect over memory, initialize with `capabilities`, and return the peer. */
export async function initializedPeer(
  server: McpServer,
  capabilities: Record<string, unknown> = {},
  protocolVersion = '2025-11-25',
  options: InMemoryTransportOptions & ConnectOptions = {},
): Promise<{ peer: Peer; session: Session }> {
  const { handle, session } = await connectInMemory(server, options);
  const peer = new Peer(handle);
  await peer.initialize(capabilities, protocolVersion);
  return { peer, session };
}

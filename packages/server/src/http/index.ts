/** `@entropic-mcp/server/http`: the Streamable HTTP transport on node:http. */

export type { ConnectableServer, HttpCloseOptions, McpHttpHandler } from './handler.js';
export { createMcpHttpHandler } from './handler.js';
export type {
  CorsOptions,
  HttpAuthOptions,
  McpHttpHandlerOptions,
  ProtectedResourceMetadata,
} from './options.js';
export { DEFAULT_MAX_BODY_BYTES } from './options.js';
export type { HttpServerHandle, ServeHttpOptions } from './serve.js';
export { serveHttp } from './serve.js';
export { HttpServerTransport } from './sessions/transport.js';
export type { HttpTransportConfig } from './sessions/transport-config.js';
export type { AuthRefusal } from './stages/auth.js';
export { bearerAuth, PRM_PATH } from './stages/auth.js';
export type {
  AppendOptions,
  EventStore,
  MemoryEventStoreOptions,
  ReplayedEvents,
  StoredEvent,
} from './state/event-store.js';
export { MemoryEventStore } from './state/event-store.js';
export type {
  MessageRouter,
  RoutedMessage,
  SessionRecord,
  SessionRegistry,
  SharedSessionState,
} from './state/shared-state.js';
export { MemoryMessageHub, MemorySessionRegistry } from './state/shared-state.js';
export type { Flushable } from './streams/head-hold.js';
export { HeadHold } from './streams/head-hold.js';

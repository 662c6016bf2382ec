/** `@entropic-mcp/server/http`: the Streamable HTTP transport on node:http. */

export type { AuthRefusal } from './auth.js';
export { bearerAuth, PRM_PATH } from './auth.js';
export type {
  AppendOptions,
  EventStore,
  MemoryEventStoreOptions,
  ReplayedEvents,
  StoredEvent,
} from './event-store.js';
export { MemoryEventStore } from './event-store.js';
export type { ConnectableServer, HttpCloseOptions, McpHttpHandler } from './handler.js';
export { createMcpHttpHandler } from './handler.js';
export type { Flushable } from './head-hold.js';
export { HeadHold } from './head-hold.js';
export type {
  CorsOptions,
  HttpAuthOptions,
  McpHttpHandlerOptions,
  ProtectedResourceMetadata,
} from './options.js';
export { DEFAULT_MAX_BODY_BYTES } from './options.js';
export type { HttpServerHandle, ServeHttpOptions } from './serve.js';
export { serveHttp } from './serve.js';
export type {
  MessageRouter,
  RoutedMessage,
  SessionRecord,
  SessionRegistry,
  SharedSessionState,
} from './shared-state.js';
export { MemoryMessageHub, MemorySessionRegistry } from './shared-state.js';
export { HttpServerTransport } from './transport.js';
export type { HttpTransportConfig } from './transport-config.js';

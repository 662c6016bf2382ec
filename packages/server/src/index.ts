// Public surface of @entropic-mcp/server; installs the full JSON Schema validator, the HMAC and the
// OpenTelemetry API's loader.
import { useMacFactory } from './core/modern/sealer.js';
import { useOtelApi } from './core/telemetry/api.js';
import { useFullValidator } from './core/validator.js';
import { hmacSha256 } from './crypto/hmac.js';
import { loadOtelApi } from './telemetry/otel-api.js';
import { ajvValidatorFactory } from './validation/ajv.js';

useFullValidator(ajvValidatorFactory);
useMacFactory(hmacSha256);
useOtelApi(loadOtelApi);

export { audio, image, resource, resourceLink, text } from './core/content.js';
export {
  ErrorCode,
  LocalError,
  type LocalErrorCode,
  McpError,
  McpServerError,
  ToolError,
  type WireError,
} from './core/errors.js';
export type {
  MethodDefinition,
  MethodHandler,
  NotificationContext,
  NotificationDefinition,
  NotificationHandler,
  RequestContext,
  RequestHook,
  RequestOutcome,
} from './core/extension-types.js';
export type {
  Awaitable,
  Completer,
  CompletionContext,
  Era,
  HandlerContext,
  PeerRequestOptions,
  PromptDefinition,
  PromptHandler,
  Registration,
  ResourceReader,
  ResourceTemplateDefinition,
  TemplateLister,
  TemplateReader,
  ToolHandler,
} from './core/handler-types.js';
export { Later, type LaterListener } from './core/later.js';
export { redact } from './core/logging.js';
export { type MaskedStream, maskSecrets, REDACTED, SecretMasker } from './core/mask.js';
export type {
  Middleware,
  MiddlewareContext,
  MiddlewareMatch,
  MiddlewareMethods,
  MiddlewareParams,
  MiddlewareResult,
  Next,
  ToolMatch,
} from './core/middleware/types.js';
export type { CapabilityOptions, ServerOptions } from './core/options.js';
export {
  type ClientContext,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './core/protocol.js';
export { MemoryRateLimitStore } from './core/rate-limit/memory-store.js';
export { RateLimited } from './core/rate-limit/refusal.js';
export type {
  RateCaller,
  RateLimitOptions,
  RateLimitStore,
  RateRule,
  RateVerdict,
} from './core/rate-limit/types.js';
export { PreparedJson, RawJson } from './core/raw-json.js';
export type {
  PromptArgs,
  StandardJsonSchema,
  ToolArgs,
  ToolSchema,
  ToolStructured,
} from './core/schema-types.js';
export { McpServer } from './core/server.js';
export type { ConnectOptions, Session } from './core/session.js';
export {
  InMemorySubscriptionBus,
  isSubscriptionEvent,
  type SubscriptionBus,
  type SubscriptionEvent,
  type SubscriptionListener,
} from './core/subscription-bus.js';
export { MemoryTaskStore } from './core/tasks/memory-store.js';
export type {
  FinishedLimits,
  StoredTask,
  TaskEviction,
  TaskOptions,
  TaskPage,
  TaskRecord,
  TaskStatus,
  TaskStore,
  TaskSupport,
} from './core/tasks/types.js';
export type { JsonRpcMessage, MessageContext, RequestId, SendOptions, Transport } from './core/transport.js';
export type {
  Annotations,
  AudioContent,
  AuthInfo,
  BlobResourceContents,
  Caller,
  ClientCapabilities,
  ContentBlock,
  CreateMessageParams,
  CreateMessageResult,
  ElicitResult,
  EmbeddedResource,
  GetPromptResult,
  Icon,
  ImageContent,
  Implementation,
  JsonSchema,
  LogLevel,
  PromptArgument,
  PromptMessage,
  ReadResourceResult,
  Register,
  ResourceContents,
  ResourceDefinition,
  ResourceLink,
  Role,
  Root,
  ServerInfo,
  TextContent,
  TextResourceContents,
  TokenInfo,
  ToolAnnotations,
  ToolDefinition,
  ToolResult,
  Visibility,
} from './core/types.js';
export type { UriVariables } from './core/uri-template.js';
export {
  createInMemoryTransportPair,
  InMemoryTransport,
  type InMemoryTransportOptions,
} from './transport/in-memory.js';

/**
 * The seams inside the core, as interfaces: what a method needs of the server, what a request
 * needs of its connection, and what a connection needs of the server. The concrete classes
 * (McpServer, SessionImpl, RequestState) implement them; each depends on these, not on the others.
 */

import type { Capability } from './declared.js';
import type { NotificationContext, RequestHook } from './extension-types.js';
import type { Era, HandlerContext, InputRequest, PeerRequestOptions, RequestId } from './handler-types.js';
import type { Layer } from './middleware/chain.js';
import type { StateSealer } from './modern/sealer.js';
import type { ResolvedOptions } from './options.js';
import type { ClientContext } from './protocol.js';
import type { RateLimiter } from './rate-limit/limiter.js';
import type { PromptEntry, Registry, ResourceEntry, TemplateEntry, ToolEntry } from './registry.js';
import type { Schedulable, Scheduler } from './scheduler.js';
import type { SubscriptionBus } from './subscription-bus.js';
import type { Tasks } from './tasks/service.js';
import type { Operation } from './telemetry/operation.js';
import type { ServerTelemetry } from './telemetry/server-telemetry.js';
import type { JsonRpcMessage, MessageContext } from './transport.js';
import type { LogLevel, ServerInfo } from './types.js';

/** A registry kind whose changes are announced. */
export type Kind = 'tools' | 'resources' | 'prompts';

/** What the built-in methods read of the server. */
export interface ServerCore {
  readonly info: ServerInfo;
  readonly options: ResolvedOptions;
  /** Spans and metrics of the requests this server serves (no-ops without an OpenTelemetry SDK). */
  readonly telemetry: ServerTelemetry;
  /** The `serverInfo` object sent to clients. */
  readonly wireInfo: Record<string, unknown>;
  readonly tools: Registry<ToolEntry>;
  readonly resources: Registry<ResourceEntry>;
  readonly templates: Registry<TemplateEntry>;
  readonly prompts: Registry<PromptEntry>;
  readonly bus: SubscriptionBus;
  /** Seals and opens the `requestState` of multi-round-trip requests. */
  readonly sealer: StateSealer;
  /**
   * What the server declares now: the initialize result's capabilities, or server/discover's (see
   * declared.ts, where what it answers is decided too).
   */
  capabilities(era: Era): Record<string, unknown>;
  /** Declared extensions, custom notifications, request hooks. */
  readonly extensions: Extensions;
  /** The tasks of this server, once a tool that can run as a task was added. */
  readonly tasks: Tasks | undefined;
  /** Call `fn` when the server starts closing (long-lived requests end gracefully); returns a remover. */
  onClosing(fn: () => void): () => void;
  /** Call `fn` when `visibilityChanged()` says what `visible` rules read changed; returns a remover. */
  watchVisibility(fn: () => void): () => void;
}

/** A notification handler as the session calls it: params without `_meta`, already checked. */
export interface NotificationEntry {
  readonly eras: readonly Era[];
  /** May return a promise; a refusal (bad params) or a throw is reported, never answered. */
  run(params: Record<string, unknown> | undefined, ctx: NotificationContext): unknown;
}

/**
 * A `subscriptions/listen` filter field an extension adds (2026-07-28): it checks the value the
 * client asked for (throw an McpError to refuse), says what is granted, and starts delivering.
 */
export interface ListenFilter {
  /** The granted value (shown in the acknowledgement), or undefined to grant nothing. */
  grant(value: unknown, req: MethodContext): unknown;
  /** Start sending notifications for the granted value on this listen request; returns the stop. */
  start(granted: unknown, req: MethodContext, meta: Record<string, unknown>): () => void;
}

/** What the core reads of the extension registry (`ExtensionRegistry`). */
export interface Extensions {
  /** The hooks, in the order added; a new array on every change. */
  readonly hooks: readonly RequestHook[];
  /** The middleware (hooks' `before` included), in the order added; a new array on every change. */
  readonly layers: readonly Layer[];
  readonly notifications: Map<string, NotificationEntry>;
  readonly nameParams: Map<string, string>;
  readonly listenFilters: Map<string, ListenFilter>;
  has(id: string): boolean;
  /** `capabilities.extensions`, or undefined when nothing is declared. */
  capability(): Record<string, unknown> | undefined;
  declare(id: string, settings?: Record<string, unknown>): () => void;
}

/** What registration needs of the server: its registries and a way to announce a change. */
export interface RegistryHost extends ServerCore {
  changed(kind: Kind): void;
  /** A tool that runs as a task was added: switch tasks on (refused when `options.tasks` is false). */
  useTasks(): void;
}

export interface Batch {
  add(response: Record<string, unknown>): void;
  skip(): void;
}

/** A request as its connection answers and forgets it. */
export interface Served extends Schedulable {
  readonly requestId: RequestId;
  readonly method: string;
  readonly batch: Batch | undefined;
  readonly started: boolean;
}

/** What a request needs of the connection it came in on. */
export interface ConnectionCore {
  readonly server: ServerCore;
  /** The client as fixed at initialize (2025 revisions); undefined before, and in the modern era. */
  client: ClientContext | undefined;
  /** The `logging/setLevel` floor (2025 revisions). */
  logFloor: number;
  /** Resource URIs subscribed with `resources/subscribe` (2025 revisions). */
  readonly subscriptions: Set<string>;
  readonly sessionId: string | undefined;
  /** A key of this connection, unique among all processes (what tasks of a connection without a session belong to). */
  readonly connectionKey: string;
  /** One exchange per connection (stateless or 2026-07-28 HTTP): nothing made on it outlives it. */
  readonly ephemeral: boolean;
  /** Set when this stands in for the connection of a request handed to a task. */
  readonly taskId?: string;
  /** 2026-07-28, a request handed to a task: a question for the client, answered through tasks/update. */
  input?(request: InputRequest, key: string | undefined): Promise<unknown>;
  send(message: JsonRpcMessage | JsonRpcMessage[], relatedRequestId?: RequestId): void;
  reply(req: Served, message: Record<string, unknown>): void;
  settled(req: Served): void;
  logFor(level: LogLevel, logger: string | undefined, data: unknown, related: RequestId | undefined): void;
  requestFor<T>(
    method: string,
    params: Record<string, unknown> | undefined,
    options: PeerRequestOptions | undefined,
    origin:
      | { readonly requestId?: RequestId; readonly signal: AbortSignal; readonly op?: Operation | undefined }
      | undefined,
  ): Promise<T>;
}

/** What a built-in method receives: the request, which is also the handler context. */
export interface MethodContext extends HandlerContext {
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
  readonly context: MessageContext | undefined;
  readonly session: ConnectionCore;
  /** Answered, cancelled or dropped. */
  readonly finished: boolean;
  /** The request's telemetry, when an OpenTelemetry SDK is registered. */
  readonly op?: Operation | undefined;
  /** 2026-07-28: this round asked the client for input and ends with input_required. */
  readonly awaitingInput: boolean;
  /** 2026-07-28: run once before the handler's first question for the client (the task decision sets it). */
  beforeInput: (() => void) | undefined;
  /**
   * A task takes this request over: it leaves its connection's table and its concurrency slot, and
   * `to` stands in for the connection from now on (it answers the request itself).
   */
  handOver(to: ConnectionCore): void;
  /** Abort the handler and end the request without an answer. */
  cancel(reason: unknown): void;
}

export type MethodRun = (req: MethodContext) => unknown;

export interface MethodSpec {
  run: MethodRun;
  /** Runs an application handler: takes a concurrency slot and is subject to the handler timeout. */
  scheduled: boolean;
  /** The capability the server must declare for this method to be answered (else -32601). */
  needs?: Capability;
}

/** What a connection needs of the server beyond the methods' view. */
export interface ServerHost extends ServerCore {
  readonly scheduler: Scheduler;
  /** Rate limits, when the server has any. */
  readonly rateLimiter: RateLimiter | undefined;
  /** The 2025 method table. */
  readonly methods: Map<string, MethodSpec>;
  /** The 2026-07-28 method table. */
  readonly modernMethods: Map<string, MethodSpec>;
  detach(session: unknown): void;
}

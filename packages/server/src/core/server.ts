/**
 * McpServer: the registries, options and concurrency pool shared by every session, plus the
 * server-wide notifications. `connect(transport)` binds one more connection; it may be called any
 * number of times.
 */

import { declaredCapabilities } from './declared.js';
import { LocalError, requireCapability } from './errors.js';
import type {
  MethodDefinition,
  MethodHandler,
  NotificationDefinition,
  NotificationHandler,
  RequestHook,
} from './extension-types.js';
import { addMethodTo, addNotificationTo } from './extensions/methods.js';
import { ExtensionRegistry } from './extensions/registry.js';
import type {
  Era,
  PromptDefinition,
  PromptHandler,
  Registration,
  ResourceReader,
  ResourceTemplateDefinition,
  TemplateReader,
  ToolHandler,
} from './handler-types.js';
import type { Kind, MethodSpec, ServerHost } from './host.js';
import { redact } from './logging.js';
import { builtinMethods } from './methods/index.js';
import { modernMethods } from './methods/modern.js';
import { taskIdsFilter } from './methods/tasks/listen.js';
import { addTaskMethods } from './methods/tasks/methods.js';
import type { Middleware, MiddlewareMatch, ToolMatch } from './middleware/types.js';
import { StateSealer } from './modern/sealer.js';
import { type ResolvedOptions, resolveOptions, type ServerOptions } from './options.js';
import { RateLimiter } from './rate-limit/limiter.js';
import { addPromptTo, addResourceTo, addTemplateTo, addToolTo } from './registrations.js';
import {
  type PromptEntry,
  Registry,
  type ResourceEntry,
  type TemplateEntry,
  type ToolEntry,
  wireOf,
} from './registry.js';
import { Scheduler } from './scheduler.js';
import type { SchemaCandidate, SchemaChecked, ToolSchema } from './schema-types.js';
import { type ConnectOptions, type Session, SessionImpl } from './session.js';
import { InMemorySubscriptionBus, type SubscriptionBus, type SubscriptionEvent } from './subscription-bus.js';
import { resolveTaskOptions, Tasks } from './tasks/service.js';
import type { ResolvedTaskOptions } from './tasks/types.js';
import { TASKS_EXTENSION } from './tasks/views.js';
import { watchQueue } from './telemetry/instruments.js';
import { ServerTelemetry } from './telemetry/server-telemetry.js';
import type { Transport } from './transport.js';
import type { LogLevel, ResourceDefinition, ServerInfo, ToolDefinition } from './types.js';
import { announce, LIST_CHANGED } from './visibility/announce.js';
import { hiddenFrom } from './visibility/lookup.js';
import { KINDS, touchedOf } from './visibility/view.js';

const BUS_EVENT: Record<Kind, SubscriptionEvent> = {
  tools: { type: 'toolsListChanged' },
  resources: { type: 'resourcesListChanged' },
  prompts: { type: 'promptsListChanged' },
};

export class McpServer implements ServerHost {
  readonly info: ServerInfo;
  readonly options: ResolvedOptions;
  /** The `serverInfo` object of the initialize result. */
  readonly wireInfo: Record<string, unknown>;
  readonly tools = new Registry<ToolEntry>();
  readonly resources = new Registry<ResourceEntry>();
  readonly templates = new Registry<TemplateEntry>();
  readonly prompts = new Registry<PromptEntry>();
  readonly scheduler: Scheduler;
  /** Decides rate limits (`options.rateLimits`); undefined when none are set. */
  readonly rateLimiter: RateLimiter | undefined;
  /** Change events for `subscriptions/listen` streams (ServerOptions.subscriptionBus). */
  readonly bus: SubscriptionBus;
  private readonly ownBus: boolean;
  /** @internal the method table sessions dispatch through. */
  readonly methods: Map<string, MethodSpec> = builtinMethods();
  /** @internal the 2026-07-28 method table. */
  readonly modernMethods: Map<string, MethodSpec> = modernMethods();
  readonly sealer: StateSealer;
  /** @internal declared extensions, custom notifications and request hooks. */
  readonly extensions = new ExtensionRegistry();
  /** @internal the tasks, once a tool that can run as a task was added. */
  tasks: Tasks | undefined;
  /** The task options, checked when the server is made; undefined when `options.tasks` is false. */
  private readonly taskOptions: ResolvedTaskOptions | undefined;
  readonly telemetry: ServerTelemetry;
  private readonly unwatchQueue: () => void;
  private readonly closingHooks = new Set<() => void>();
  private readonly live = new Set<SessionImpl>();
  private readonly pendingChanges = new Set<Kind>();
  private readonly visibilityWatchers = new Set<() => void>();
  private closed = false;

  constructor(info: ServerInfo, options?: ServerOptions) {
    if (typeof info?.name !== 'string' || typeof info.version !== 'string') {
      throw new TypeError('new McpServer(info): info.name and info.version must be strings');
    }
    this.info = info;
    this.options = resolveOptions(options);
    this.wireInfo = wireOf(info, ['instructions']);
    this.ownBus = this.options.subscriptionBus === undefined;
    this.bus = this.options.subscriptionBus ?? new InMemorySubscriptionBus();
    this.sealer = new StateSealer(this.options.requestState, this.options.clock);
    for (const [id, settings] of Object.entries(this.options.extensions))
      this.extensions.declare(id, settings);
    this.scheduler = new Scheduler(
      this.options.maxConcurrency,
      this.options.maxQueued,
      this.options.handlerTimeoutMs,
    );
    // Checked now; tasks switch on with the first tool that can run as one.
    this.taskOptions = this.options.tasks === false ? undefined : resolveTaskOptions(this.options.tasks);
    this.rateLimiter =
      this.options.rateLimits === undefined
        ? undefined
        : new RateLimiter(this.options.rateLimits, this.options.clock);
    this.telemetry = new ServerTelemetry(this);
    this.unwatchQueue = watchQueue(this.scheduler);
  }

  /** The sessions currently connected. */
  get sessions(): ReadonlySet<Session> {
    return this.live;
  }

  // Registration

  addTool<
    const Input extends SchemaCandidate | undefined = undefined,
    const Output extends SchemaCandidate | undefined = undefined,
  >(
    definition: ToolDefinition<Input, Output> &
      SchemaChecked<Input, 'inputSchema'> &
      SchemaChecked<Output, 'outputSchema'>,
    handler: ToolHandler<Input, Output>,
  ): Registration<ToolDefinition<Input, Output>, ToolHandler<Input, Output>> {
    return addToolTo(this, definition, handler);
  }

  addResource(
    definition: ResourceDefinition,
    read: ResourceReader,
  ): Registration<ResourceDefinition, ResourceReader> {
    return addResourceTo(this, definition, read);
  }

  addResourceTemplate(
    definition: ResourceTemplateDefinition,
    read: TemplateReader,
  ): Registration<ResourceTemplateDefinition, TemplateReader> {
    return addTemplateTo(this, definition, read);
  }

  addPrompt<const Args extends SchemaCandidate | undefined = undefined>(
    definition: PromptDefinition<Args> & SchemaChecked<Args, 'argsSchema'>,
    handler: PromptHandler<Args>,
  ): Registration<PromptDefinition<Args>, PromptHandler<Args>> {
    return addPromptTo(this, definition, handler);
  }

  // Extensions

  /**
   * Declare extension `id` (e.g. `com.example/search`) with its settings: it is listed under
   * `capabilities.extensions` in initialize and server/discover. Returns the call that withdraws it.
   */
  declareExtension(id: string, settings?: Record<string, unknown>): () => void {
    return this.extensions.declare(id, settings);
  }

  /** Serve a custom request method; its params are checked against `definition.params` first. */
  addMethod<const Params extends ToolSchema | undefined = undefined>(
    definition: MethodDefinition<Params>,
    handler: MethodHandler<Params>,
  ): Registration<MethodDefinition<Params>, MethodHandler<Params>> {
    return addMethodTo(this, definition, handler);
  }

  /** Handle a custom notification from clients. */
  addNotification<const Params extends ToolSchema | undefined = undefined>(
    definition: NotificationDefinition<Params>,
    handler: NotificationHandler<Params>,
  ): Registration<NotificationDefinition<Params>, NotificationHandler<Params>> {
    return addNotificationTo(this, definition, handler);
  }

  /**
   * Run `hook` around every request: its `before` as a middleware layer (in the order added, among the
   * others), its `after` once the request ended. Returns its remover.
   */
  addHook(hook: RequestHook): () => void {
    return this.extensions.addHook(hook);
  }

  /**
   * Add a middleware around requests (see docs/middleware.md): every request, or those `match` selects
   * (`{ method }`, `{ tool }`). Layers run in the order added on the way in, in reverse on the way out.
   * Returns its remover.
   */
  use(middleware: Middleware): () => void;
  use(match: { tool: ToolMatch; method?: 'tools/call' }, middleware: Middleware<'tools/call'>): () => void;
  use<const M extends string>(match: MiddlewareMatch<M>, middleware: Middleware<M>): () => void;
  use(first: unknown, second?: unknown): () => void {
    if (second === undefined) return this.extensions.use(undefined, first);
    return this.extensions.use(first as MiddlewareMatch, second);
  }

  /**
   * @internal Switch tasks on (the first tool that can run as a task does): the tasks extension is
   * declared (2026-07-28), `capabilities.tasks` too (2025-11-25), and the task methods are served.
   */
  useTasks(): void {
    if (this.tasks !== undefined) return;
    if (this.taskOptions === undefined) {
      throw new LocalError(
        'CAPABILITY_NOT_DECLARED',
        'a tool that runs as a task (execution.taskSupport) needs tasks, which ServerOptions.tasks: false turned off',
      );
    }
    const tasks = new Tasks(this.taskOptions, this.options.clock);
    this.extensions.declare(TASKS_EXTENSION);
    addTaskMethods(this, tasks);
    this.extensions.listenFilters.set('taskIds', taskIdsFilter(tasks));
    this.tasks = tasks;
  }

  // Connections

  /** Bind one transport to this server and start it. */
  async connect(transport: Transport, options: ConnectOptions = {}): Promise<Session> {
    if (this.closed) throw new LocalError('CLOSED', 'The server is closed');
    const session = new SessionImpl(this, transport, options);
    this.live.add(session);
    try {
      await transport.start();
    } catch (error) {
      this.live.delete(session);
      throw error;
    }
    return session;
  }

  /** @internal a session closed. */
  detach(session: SessionImpl): void {
    this.live.delete(session);
    this.tasks?.connectionClosed(session);
  }

  /**
   * What the server declares, from the options and what is registered now: the initialize result's
   * capabilities (`legacy`) or server/discover's (`modern`).
   */
  capabilities(era: Era = 'legacy'): Record<string, unknown> {
    return declaredCapabilities(this, era);
  }

  // Server-wide messages

  /** Send a notification to every connected, initialized session. */
  notify(method: string, params?: Record<string, unknown>): void {
    for (const session of this.live) if (session.client !== undefined) session.notify(method, params);
  }

  notifyToolsChanged(): void {
    this.listChanged('tools');
  }

  notifyResourcesChanged(): void {
    this.listChanged('resources');
  }

  notifyPromptsChanged(): void {
    this.listChanged('prompts');
  }

  private listChanged(kind: Kind): void {
    this.requireListChanged();
    this.publish(BUS_EVENT[kind]);
    this.notify(LIST_CHANGED[kind]);
  }

  /**
   * What a `visible` rule reads changed (a flag, a group membership): every session and listen stream
   * looks at its lists again, and those whose lists changed get list_changed. Registering, updating
   * and removing items, and a session's new token, need no call: they are noticed.
   */
  visibilityChanged(): void {
    if (!this.options.listChanged) return;
    for (const kind of KINDS) announce(this.live, kind);
    for (const watcher of [...this.visibilityWatchers]) watcher();
  }

  /** @internal a listen stream's look-again when visibility changed; returns its remover. */
  watchVisibility(fn: () => void): () => void {
    this.visibilityWatchers.add(fn);
    return () => this.visibilityWatchers.delete(fn);
  }

  /** Hand an event to the bus; a bus that fails is reported through no channel but its own. */
  private publish(event: SubscriptionEvent): void {
    try {
      const out = this.bus.publish(event);
      if (out !== undefined) out.catch(() => undefined);
    } catch {
      // A failing bus must not break the registry change that caused the event.
    }
  }

  /** `notifications/resources/updated` to the sessions subscribed to `uri` (none: nothing is sent). */
  notifyResourceUpdated(uri: string): void {
    requireCapability(this.options.subscribe, 'notifyResourceUpdated needs capabilities.subscribe: true');
    this.publish({ type: 'resourceUpdated', uri });
    for (const session of this.live) {
      if (session.subscriptions.has(uri) && !hiddenFrom(this, session.view.caller, uri))
        session.notify('notifications/resources/updated', { uri });
    }
  }

  /** `notifications/message` to every session whose `logging/setLevel` floor lets `level` through. */
  log(level: LogLevel, logger: string | undefined, data: unknown): void {
    requireCapability(this.options.logging, 'server.log needs capabilities.logging (it is on by default)');
    const payload = this.options.redactLogs ? redact(data) : data;
    for (const session of this.live)
      if (session.client !== undefined) session.emitLog(level, logger, payload);
  }

  /**
   * @internal a registry changed: one list_changed per kind per tick, to the initialized sessions
   * whose caller's list changed (and, through the bus, to listen streams, which check the same).
   */
  changed(kind: Kind): void {
    if (!this.options.listChanged) {
      touchedOf(this, kind, true); // nobody is told: forget what changed
      return;
    }
    if (this.pendingChanges.size === 0) {
      queueMicrotask(() => {
        const kinds = [...this.pendingChanges];
        this.pendingChanges.clear();
        for (const k of kinds) {
          const touched = touchedOf(this, k, true);
          this.publish(BUS_EVENT[k]);
          if (this.live.size > 0) announce(this.live, k, touched);
        }
      });
    }
    this.pendingChanges.add(kind);
  }

  private requireListChanged(): void {
    requireCapability(this.options.listChanged, 'list_changed notifications need capabilities.listChanged');
  }

  /** Tasks this process runs now (their handlers have not ended), in both eras. */
  get runningTasks(): number {
    return this.tasks?.running.size ?? 0;
  }

  /**
   * Mark every task this process runs failed, saying the server shut down, and stop their handlers
   * (a shutdown after the drain grace). Resolves with how many there were, once the store has them.
   */
  endTasks(): Promise<number> {
    return this.tasks?.endAll() ?? Promise.resolve(0);
  }

  onClosing(fn: () => void): () => void {
    this.closingHooks.add(fn);
    return () => this.closingHooks.delete(fn);
  }

  /** Close every session and refuse new ones. Listen streams are answered first. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.closingHooks.size > 0) {
      for (const fn of [...this.closingHooks]) fn();
      this.closingHooks.clear();
      await new Promise<void>((resolve) => setTimeout(resolve, 0)); // let their answers leave
    }
    await this.tasks?.close();
    await Promise.all([...this.live].map((session) => session.close()));
    this.scheduler.dispose();
    this.unwatchQueue();
    if (this.ownBus) await this.bus.close?.();
  }
}

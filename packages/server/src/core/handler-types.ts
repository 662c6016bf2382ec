/** What handlers receive and return. */

import type { ClientContext } from './protocol.js';
import type { PromptArgs, SchemaCandidate, ToolArgs, ToolStructured } from './schema-types.js';
import type {
  AuthInfo,
  CreateMessageParams,
  CreateMessageResult,
  ElicitResult,
  GetPromptResult,
  JsonSchema,
  LogLevel,
  PromptArgument,
  PromptMessage,
  ReadResourceResult,
  ResourceContents,
  ResourceDefinition,
  Root,
  ToolDefinition,
  ToolResult,
  Visibility,
} from './types.js';
import type { UriVariables } from './uri-template.js';

export type RequestId = string | number;

export interface PeerRequestOptions {
  /** Milliseconds before the request fails with -32001. Default: ServerOptions.requestTimeoutMs. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * 2026-07-28: the key of this input request in `inputRequests`/`inputResponses`. Default: the
   * order in which the handler asks (`input-1`, `input-2`, …), stable while the handler is.
   */
  key?: string;
}

/** The era a request is served in: `legacy` (2025-11-25 and older) or `modern` (2026-07-28). */
export type Era = 'legacy' | 'modern';

/** Parameters of an elicitation request. */
export interface ElicitParams {
  mode?: 'form' | 'url';
  message: string;
  requestedSchema?: JsonSchema;
  url?: string;
  elicitationId?: string;
}

/** One question for the client: the three kinds of input a handler may ask for. */
export type InputRequest =
  | { method: 'elicitation/create'; params: ElicitParams }
  | { method: 'sampling/createMessage'; params: CreateMessageParams }
  | { method: 'roots/list'; params?: Record<string, unknown> };

/** Several questions at once, by key. */
export type InputRequests = Record<string, InputRequest>;

/** The client's answer to one input request. */
export type InputResultOf<R extends InputRequest> = R['method'] extends 'elicitation/create'
  ? ElicitResult
  : R['method'] extends 'sampling/createMessage'
    ? CreateMessageResult
    : { roots: Root[] };

export type InputResults<T extends InputRequests> = { [K in keyof T]: InputResultOf<T[K]> };

/** The per-request handle every handler receives. Valid while the handler runs. */
export interface HandlerContext {
  /** Aborted when the client cancels the request, the handler times out or the connection closes. */
  readonly signal: AbortSignal;
  /** Calls `hook` once when the request is aborted (at once if it already was); cheaper than `signal`. */
  onAbort(hook: () => void): void;
  readonly requestId: RequestId;
  /** The client as it presented itself for this request (protocol version, capabilities, info). */
  readonly client: ClientContext;
  /** The era this request is served in. */
  readonly era: Era;
  /** The protocol version of this request (the same as `client.protocolVersion`). */
  readonly protocolVersion: string;
  /**
   * Which attempt this is: 1, then 2, 3… when a 2026-07-28 client retries with the input asked
   * for. A handler runs once per attempt and gets earlier answers again (memoised), so it must not
   * cause side effects before it has all its input. Always 1 in the legacy era.
   */
  readonly round: number;
  /** The transport's session id, when it has one (Streamable HTTP in stateful mode). */
  readonly sessionId: string | undefined;
  /**
   * What the transport's authentication hook attached (HTTP with `auth`; undefined on stdio and in
   * memory): the verified token with `bearerAuth`, or what `Register['auth']` declares for a hook of yours.
   */
  readonly auth: AuthInfo | undefined;
  /**
   * The stable key of the authenticated caller (HTTP with auth), the same on every process and for
   * every request of that caller: scope what belongs to one caller by it. Undefined without auth.
   */
  readonly principal: string | undefined;
  /**
   * The settings the client declared for extension `id` (an object, `{}` when it declared none), or
   * undefined when it did not declare it: read from this request's `_meta` client capabilities first
   * (every 2026-07-28 request; a 2025 client may opt in per request), then from its initialize.
   */
  clientExtension(id: string): Record<string, unknown> | undefined;
  /** Report progress; a no-op when the request carried no progressToken or progress did not increase. */
  progress(done: number, total?: number, message?: string): void;
  /** A request header, case-insensitively (HTTP); undefined on stdio and in memory. */
  header(name: string): string | undefined;
  /** Send `notifications/message` to this client, honouring its `logging/setLevel` floor. */
  log(level: LogLevel, data: unknown, logger?: string): void;
  /** Ask the user for structured input (form mode). Requires the client's `elicitation` capability. */
  elicit(message: string, requestedSchema: JsonSchema, options?: PeerRequestOptions): Promise<ElicitResult>;
  /** Send the user to a URL (URL mode). Requires the client's `elicitation.url` capability. */
  elicitUrl(
    message: string,
    url: string,
    elicitationId?: string,
    options?: PeerRequestOptions,
  ): Promise<ElicitResult>;
  /** `sampling/createMessage`. Requires the client's `sampling` capability. */
  sample(params: CreateMessageParams, options?: PeerRequestOptions): Promise<CreateMessageResult>;
  /** `roots/list`. Requires the client's `roots` capability. */
  listRoots(options?: PeerRequestOptions): Promise<Root[]>;
  /**
   * Ask the client for several inputs at once, by key, in either era: on a 2025 connection as
   * concurrent server-to-client requests; in 2026-07-28 as one `input_required` result, the
   * handler running again once the client retries with the answers.
   */
  ask<T extends InputRequests>(requests: T, options?: PeerRequestOptions): Promise<InputResults<T>>;
  /** Any request to the client, tied to this request (cancelled with it). Legacy era only. */
  request<T = unknown>(
    method: string,
    params?: Record<string, unknown>,
    options?: PeerRequestOptions,
  ): Promise<T>;
  /** Any notification to the client, tied to this request. */
  notify(method: string, params?: Record<string, unknown>): void;
}

export type Awaitable<T> = T | PromiseLike<T>;

/** A tool's handler; its arguments and `structuredContent` are typed from the tool's schemas. */
export type ToolHandler<
  Input extends SchemaCandidate | undefined = undefined,
  Output extends SchemaCandidate | undefined = undefined,
> = (args: ToolArgs<Input>, ctx: HandlerContext) => Awaitable<ToolResult<ToolStructured<Output>>>;
export type ResourceReader = (
  uri: string,
  ctx: HandlerContext,
) => Awaitable<ReadResourceResult | ResourceContents[]>;
export type TemplateReader = (
  uri: string,
  variables: UriVariables,
  ctx: HandlerContext,
) => Awaitable<ReadResourceResult | ResourceContents[]>;
/** A prompt's handler; its arguments are typed from the prompt's `argsSchema` (strings without one). */
export type PromptHandler<Args extends SchemaCandidate | undefined = undefined> = (
  args: PromptArgs<Args>,
  ctx: HandlerContext,
) => Awaitable<GetPromptResult | PromptMessage[]>;

export interface CompletionContext {
  /** Arguments (or template variables) the client has already filled in. */
  arguments: Record<string, string>;
  client: ClientContext;
}
export type Completer = (value: string, context: CompletionContext) => Awaitable<string[]>;

/** The resources a template stands for now: an array, or `{ resources }`. */
export type TemplateLister = (
  ctx: HandlerContext,
) => Awaitable<ResourceDefinition[] | { resources: ResourceDefinition[] }>;

export interface ResourceTemplateDefinition extends Omit<ResourceDefinition, 'uri' | 'size'> {
  uriTemplate: string;
  /** Completers for template variables, used by `completion/complete` with a `ref/resource`. */
  complete?: Record<string, Completer>;
  /**
   * The resources this template stands for now, listed by `resources/list` beside the fixed ones (each
   * read through this template). Without it, a template's resources are found only by reading them.
   */
  list?: TemplateLister;
}

export interface PromptDefinition<Args extends SchemaCandidate | undefined = SchemaCandidate | undefined>
  extends Visibility {
  name: string;
  title?: string;
  description?: string;
  /**
   * The arguments as one object schema (JSON Schema or a Standard Schema, as for a tool's inputSchema):
   * checked before the handler runs, the handler's arguments typed from it, and the `arguments` list of
   * `prompts/list` made from its properties (`description`, `title`, `required`). Values arrive as strings.
   */
  argsSchema?: Args;
  /** The arguments listed by hand, checked only for `required`; `argsSchema` does this and more. */
  arguments?: PromptArgument[];
  icons?: ToolDefinition['icons'];
  _meta?: Record<string, unknown>;
  /** Completers for prompt arguments, used by `completion/complete` with a `ref/prompt`. */
  complete?: { [K in keyof PromptArgs<Args> & string]?: Completer };
}

/** Returned by every `add*`: take the item away, or change it in place (both emit list_changed). */
export interface Registration<D, H> {
  remove(): void;
  update(changes: Partial<D>, handler?: H): void;
}

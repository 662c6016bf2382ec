/** Protocol shapes the public API speaks in (MCP 2025-11-25). JSON Schema is plain data. */

import type { JsonSchema, SchemaCandidate } from './schema-types.js';

export type { JsonSchema };
export type Meta = Record<string, unknown>;

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  icons?: Icon[];
  websiteUrl?: string;
}

/** A verified bearer token, as `bearerAuth` gives it to handlers in `ctx.auth`. */
export interface TokenInfo {
  readonly token: string;
  /** Granted scopes (the JWT `scope` claim split on spaces, or its `scp` array). */
  readonly scopes: readonly string[];
  readonly subject?: string;
  readonly clientId?: string;
  /** Seconds since the epoch, when the token says. */
  readonly expiresAt?: number;
  /** Every JWT claim (empty for static tokens). */
  readonly claims: Readonly<Record<string, unknown>>;
}

/**
 * Declaration merging point for what `ctx.auth` holds. With your own `authenticate` hook, say what it
 * returns: `declare module '@entropic-mcp/server' { interface Register { auth: MyAuth } }`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in the application
export interface Register {}

/** What `ctx.auth` holds over authenticated HTTP: a TokenInfo, or what `Register['auth']` says. */
export type AuthInfo = Register extends { auth: infer A } ? A : TokenInfo;

/** Who is asking, as a visibility rule sees it: the transport's auth value and principal key. */
export interface Caller {
  /** What the authentication hook attached (HTTP with `auth`); undefined on stdio and in memory. */
  readonly auth: AuthInfo | undefined;
  /** The stable key of the authenticated caller; undefined without auth. */
  readonly principal: string | undefined;
}

/**
 * Who may see a tool, prompt, resource or resource template. A caller who may not see it finds it
 * in no list, and calls, reads and completions of it are refused as for a name never registered.
 */
export interface Visibility {
  /**
   * Scopes the caller must hold, all of them (`auth.scopes`: a bearer token's granted scopes). A
   * caller without auth (stdio, in memory, HTTP without `auth`) holds none. Not sent on the wire.
   */
  scopes?: readonly string[];
  /**
   * Asked on each list and lookup: true shows the item to `caller`. Must answer synchronously; a
   * throw hides the item. When what it reads changes, call `server.visibilityChanged()`.
   */
  visible?: (caller: Caller) => boolean;
}

export interface ServerInfo extends Implementation {
  /** Sent as the `instructions` of the initialize result. */
  instructions?: string;
}

export interface ClientCapabilities {
  experimental?: Record<string, object>;
  roots?: { listChanged?: boolean };
  sampling?: { context?: object; tools?: object };
  elicitation?: { form?: object; url?: object };
  [key: string]: unknown;
}

export type Role = 'user' | 'assistant';

export interface Annotations {
  audience?: Role[];
  priority?: number;
  lastModified?: string;
}

export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  _meta?: Meta;
}
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
}
export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
}
export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: Meta;
}
export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  blob: string;
  _meta?: Meta;
}
export type ResourceContents = TextResourceContents | BlobResourceContents;
export interface EmbeddedResource {
  type: 'resource';
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: Meta;
}
export interface ResourceLink {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
  annotations?: Annotations;
  _meta?: Meta;
}
export type ContentBlock = TextContent | ImageContent | AudioContent | EmbeddedResource | ResourceLink;

export interface ToolResult<Structured = Record<string, unknown>> {
  content: ContentBlock[];
  structuredContent?: Structured;
  isError?: boolean;
  _meta?: Meta;
}

/** Whether a tool's calls run as tasks: never (the default), when the client can, or only as tasks. */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDefinition<
  Input extends SchemaCandidate | undefined = SchemaCandidate | undefined,
  Output extends SchemaCandidate | undefined = SchemaCandidate | undefined,
> extends Visibility {
  name: string;
  title?: string;
  description?: string;
  /**
   * JSON Schema (2020-12 unless `$schema` names draft-07), or a Standard Schema with the JSON Schema
   * extension (zod 4, arktype, valibot via toStandardJsonSchema). Defaults to an object with any
   * properties. Handler arguments are typed from it.
   */
  inputSchema?: Input;
  /** Same kinds as inputSchema; `structuredContent` is typed from it and validated against it. */
  outputSchema?: Output;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  /**
   * Whether calls run as tasks: `forbidden` (the default), `optional` (when the client can), or
   * `required`. The handler is the same either way; see "Tasks" in the README.
   */
  execution?: { taskSupport?: TaskSupport };
  _meta?: Meta;
}

export interface ResourceDefinition extends Visibility {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
  annotations?: Annotations;
  _meta?: Meta;
}

export interface ReadResourceResult {
  contents: ResourceContents[];
  _meta?: Meta;
}

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

export interface PromptMessage {
  role: Role;
  content: ContentBlock;
}

export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: Meta;
}

export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
  _meta?: Meta;
}

export interface Root {
  uri: string;
  name?: string;
  _meta?: Meta;
}

export interface CreateMessageParams {
  messages: { role: Role; content: unknown }[];
  maxTokens: number;
  systemPrompt?: string;
  modelPreferences?: Record<string, unknown>;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  temperature?: number;
  stopSequences?: string[];
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface CreateMessageResult {
  role: Role;
  content: unknown;
  model: string;
  stopReason?: string;
  [key: string]: unknown;
}

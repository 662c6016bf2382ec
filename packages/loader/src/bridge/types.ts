/**
 * The few shapes the bridge needs from an MCP server, written structurally so that the bridge depends only on
 * the public `addTool` of `@entropic-mcp/server` (whose `McpServer` satisfies `ToolHost`).
 */
import type { TaskSupport } from '@entropic-mcp/server';
import type { PluginDirective } from '../base/types.js';

export interface BridgeToolDefinition {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  /** Whether its calls run as tasks (servers without tasks ignore it). */
  execution?: { taskSupport?: TaskSupport };
  /** Scopes a caller must hold, all of them, to see and call it (servers without visibility ignore it). */
  scopes?: readonly string[];
  _meta?: Record<string, unknown>;
}

export interface BridgeTextContent {
  type: 'text';
  text: string;
}

export interface BridgeToolResult {
  content: BridgeTextContent[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/** The parts of a tool handler's context the bridge uses. */
export interface BridgeToolContext {
  readonly signal: AbortSignal;
  /** The server's cheap cancellation hook (`@entropic-mcp/server` has it); used instead of `signal` when present. */
  onAbort?(hook: () => void): void;
  progress?(done: number, total?: number, message?: string): void | Promise<void>;
  /** Sends `notifications/message` at `level`, when the client's log level lets it through. */
  log?(level: string, data: unknown, logger?: string): void;
  /** A request header (HTTP), case-insensitively. */
  header?(name: string): string | undefined;
  /** What the transport's authentication attached (`TokenInfo` of `@entropic-mcp/server`: subject, scopes). */
  readonly auth?: unknown;
  readonly protocolVersion?: string;
  readonly requestId?: unknown;
}

export type BridgeToolHandler = (
  args: Record<string, unknown>,
  ctx: BridgeToolContext,
) => BridgeToolResult | PromiseLike<BridgeToolResult>;

/** Anything tools can be registered on; `addTool` throws when the name is already taken. */
export interface ToolHost {
  addTool(definition: BridgeToolDefinition, handler: BridgeToolHandler): unknown;
}

/** Where a directive came from, handed to `onDirectives` with it. */
export interface DirectiveSource {
  /** The plugin's name (the tool's prefix). */
  readonly plugin: string;
  /** The plugin's own tool name (without the prefix). */
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

/**
 * Called after a plugin answered with at least one directive (`stop_processing`, `delegate`, ...), before the
 * result goes to the client. Throwing turns the call into an `isError` result.
 */
export type DirectivesHook = (
  directives: readonly PluginDirective[],
  source: DirectiveSource,
) => void | Promise<void>;

export interface MountOptions {
  /** Receives every non-empty directive list. */
  readonly onDirectives?: DirectivesHook;
  /** Per-call time limit in milliseconds for this plugin's calls (default: the plugin's own load-time limit). */
  readonly timeoutMs?: number;
  /**
   * Request headers a plugin with the plugin context may read (`context->header`), by name; no other header
   * reaches it. Default none.
   */
  readonly contextHeaders?: readonly string[];
  /**
   * Whether the plugin's tools run as tasks: one value for all of them, or by the plugin's own tool
   * names (`"*"`: the others). A task's cancellation cancels the plugin call.
   */
  readonly taskSupport?: TaskSupport | Readonly<Record<string, TaskSupport>>;
  /**
   * Scopes a caller must hold to see and call the plugin's tools: one list for all of them, or by the
   * plugin's own tool names (`"*"`: the others). A caller without them finds no such tool.
   */
  readonly scopes?: readonly string[] | Readonly<Record<string, readonly string[]>>;
}

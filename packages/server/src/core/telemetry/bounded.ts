/**
 * The values a client can put into span names and metric attributes, folded into bounded sets: a method name
 * counts as itself only when the MCP conventions list it or this server serves it, a JSON-RPC error code only when
 * it lies in the range JSON-RPC reserves. Everything else is `_OTHER`, the OpenTelemetry conventions' fallback
 * for a value the instrumentation does not know (`rpc.method`, `http.request.method`, `error.type`), so no client
 * can add series to a metrics backend by making names up.
 */

/** The conventions' value for a method or error the instrumentation does not know. */
export const OTHER = '_OTHER';

/** The `mcp.method.name` values the MCP semantic conventions list, with the 2026-07-28 additions. */
const WELL_KNOWN_METHODS: ReadonlySet<string> = new Set([
  'completion/complete',
  'elicitation/create',
  'initialize',
  'logging/setLevel',
  'notifications/cancelled',
  'notifications/initialized',
  'notifications/message',
  'notifications/progress',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
  'notifications/resources/updated',
  'notifications/roots/list_changed',
  'notifications/tools/list_changed',
  'notifications/subscriptions/acknowledged',
  'ping',
  'prompts/get',
  'prompts/list',
  'resources/list',
  'resources/read',
  'resources/subscribe',
  'resources/templates/list',
  'resources/unsubscribe',
  'roots/list',
  'sampling/createMessage',
  'server/discover',
  'subscriptions/listen',
  'tools/call',
  'tools/list',
]);

/** What decides which other method names count as known: the ones this server serves. */
export interface KnownMethods {
  /** The 2025 method table (built-in and custom request methods). */
  readonly methods: { has(method: string): boolean };
  /** The 2026-07-28 method table. */
  readonly modernMethods: { has(method: string): boolean };
  /** Custom notifications. */
  readonly extensions: { readonly notifications: { has(method: string): boolean } };
}

/** `method` as a span name and `mcp.method.name`: itself when known, else `_OTHER`. */
export function boundedMethod(method: string, known: KnownMethods): string {
  return WELL_KNOWN_METHODS.has(method) ||
    known.methods.has(method) ||
    known.modernMethods.has(method) ||
    known.extensions.notifications.has(method)
    ? method
    : OTHER;
}

/** The lowest and highest codes JSON-RPC reserves (its own errors and the implementation-defined server errors). */
const RESERVED_LOW = -32768;
const RESERVED_HIGH = -32000;

/** A JSON-RPC error code as `error.type` and `rpc.response.status_code`: the code when reserved, else `_OTHER`. */
export function boundedErrorCode(code: unknown): string {
  return Number.isInteger(code) && (code as number) >= RESERVED_LOW && (code as number) <= RESERVED_HIGH
    ? String(code)
    : OTHER;
}

/** The longest original method name a span keeps (in `rpc.method_original`) when its name is `_OTHER`. */
export const MAX_ORIGINAL_METHOD = 128;

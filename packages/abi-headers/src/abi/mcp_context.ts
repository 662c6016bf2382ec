// ABI definition of entropic/interfaces/i_mcp_context.h: the optional plugin context (progress, cancellation, logging, structured results, the caller).
import type {
  ConstPointer,
  c_char_ptr,
  c_const_char_ptr,
  c_double,
  c_int,
  c_size_t,
  c_void_ptr,
  HeaderSpec,
} from './ctypes.js';
import type { entropic_error_t } from './error.js';
import type { entropic_mcp_server_t } from './mcp_server.js';

/**
 * The plugin context: an optional extension of the plugin interface that gives a tool call a voice.
 *
 * A plugin that also defines entropic_mcp_server_execute_with_context() receives, with every call, a
 * context through which it can poll for cancellation, report progress, log to the client, attach a
 * structured result and read who is calling. Everything in i_mcp_server.h stays as it is: the plugin
 * still defines all nine entry points and reports ENTROPIC_MCP_PLUGIN_API_VERSION 1, so it loads into a
 * loader that knows nothing of this header and runs there as a plain plugin.
 *
 * @loading After the nine entry points the loader looks up entropic_mcp_server_execute_with_context().
 * When the library exports it, every tool call goes through it, with a context; otherwise calls go
 * through entropic_mcp_server_execute() as before. A loader that predates this header never looks it up.
 *
 * @ownership The context and every string it holds or returns belong to the host and stay valid until
 * the call returns; copy what must live longer. Strings passed to the callbacks are borrowed for the
 * length of the callback only. The struct is never freed while the plugin is loaded, so a pointer kept
 * past the call is safe to read, but its string members read NULL once the call returned, and the host
 * may later hand the same struct to another call.
 *
 * @threading The callbacks may be called from any thread while the call they belong to is running. A
 * callback through the context of a call that returned does nothing (cancelled answers non-zero;
 * progress, log and set_structured answer ENTROPIC_ERROR_INVALID_STATE; header answers NULL): stop the
 * threads a call started before it returns.
 *
 * @lock Like everything the lock records, the context may only grow: members are appended at the end,
 * never moved, removed or retyped, and the size member tells a plugin which members the host filled.
 */
export const header = {
  path: 'entropic/interfaces/i_mcp_context.h',
  includes: [
    'stddef.h',
    'entropic/entropic_export.h',
    'entropic/types/error.h',
    'entropic/interfaces/i_mcp_server.h',
  ],
} as const satisfies HeaderSpec;

/**
 * Severity of a log message, from least to most severe, as MCP's logging levels (RFC 5424).
 *
 * The host forwards a message only when the client asked for its level or a more severe one.
 */
export declare enum entropic_log_level_t {
  /** Detailed information for debugging. */
  ENTROPIC_LOG_DEBUG = 0,
  /** Normal operation. */
  ENTROPIC_LOG_INFO = 1,
  /** Normal but significant events. */
  ENTROPIC_LOG_NOTICE = 2,
  /** Something unexpected that did not stop the work. */
  ENTROPIC_LOG_WARNING = 3,
  /** An operation failed. */
  ENTROPIC_LOG_ERROR = 4,
  /** A component failed. */
  ENTROPIC_LOG_CRITICAL = 5,
  /** Action must be taken at once. */
  ENTROPIC_LOG_ALERT = 6,
  /** The system is unusable. */
  ENTROPIC_LOG_EMERGENCY = 7,
}

/**
 * What the host hands a tool call: ways to talk back to the client, and who is asking.
 *
 * Every callback receives host as its last argument. A member may be NULL when the host does not offer
 * it; a string member is NULL when the call has no such value.
 *
 * @growable The host sets size to the number of bytes of this struct it filled in. Members are only ever
 * appended, so a plugin built against a later header must check, before it reads a member, that size
 * covers it: ENTROPIC_CALL_CONTEXT_HAS(context, member) does both checks (context not NULL, member
 * inside size). A plugin built against an earlier header never reads past the members it knows.
 */
export interface entropic_call_context_t {
  /** Bytes of this struct the host filled in (sizeof the host's version of it). */
  size: c_size_t;
  /** The host's data for this call, passed as the last argument of every callback. */
  host: c_void_ptr;
  /**
   * Non-zero once the call should stop early: the client cancelled it or its time limit passed. A long
   * call polls it and returns soon after it turns non-zero (any answer will do; it is discarded). A call
   * that never returns is killed after a grace period, as a plugin without a context would be.
   */
  cancelled: (host: c_void_ptr) => c_int;
  /**
   * Reports progress: done so far, out of total (negative when unknown), with an optional message
   * (NULL for none). It reaches the client as a progress notification when the client asked for
   * progress; reports closer together than the host's minimum interval are merged into the latest one.
   * Answers ENTROPIC_ERROR_CANCELLED once the call is cancelled, else ENTROPIC_OK.
   */
  progress: (
    done: c_double,
    total: c_double,
    message: c_const_char_ptr,
    host: c_void_ptr,
  ) => entropic_error_t;
  /**
   * Logs a message to the client at level, from logger (NULL for the plugin's name), with data_json a
   * JSON value (text that is not JSON is sent as a string). Sent only when the client's log level lets
   * it through. Answers ENTROPIC_ERROR_INVALID_ARGUMENT for a NULL data_json or a level out of range.
   */
  log: (
    level: entropic_log_level_t,
    logger: c_const_char_ptr,
    data_json: c_const_char_ptr,
    host: c_void_ptr,
  ) => entropic_error_t;
  /**
   * Attaches a structured result (JSON text of an object) to the call's answer, replacing an earlier
   * one; NULL removes it. The host checks it against the tool's outputSchema when the tool declares one.
   */
  set_structured: (json: c_const_char_ptr, host: c_void_ptr) => entropic_error_t;
  /**
   * A request header the operator lets plugins see, by name, case-insensitively; NULL when the request
   * had none or the transport has no headers (stdio).
   */
  header: (name: c_const_char_ptr, host: c_void_ptr) => c_const_char_ptr;
  /** The authenticated subject (the token's sub), or NULL when the request was not authenticated. */
  subject: c_const_char_ptr;
  /** The granted scopes, separated by single spaces; empty when none were granted, NULL without authentication. */
  scopes: c_const_char_ptr;
  /** The MCP protocol revision of the request, such as "2025-11-25". */
  protocol_version: c_const_char_ptr;
  /** The JSON-RPC id of the request, as JSON text (a number or a quoted string). */
  request_id: c_const_char_ptr;
}

/**
 * Runs one tool, like entropic_mcp_server_execute(), with a context for the call.
 *
 * The answer is the same ServerResponse envelope. The plugin still defines entropic_mcp_server_execute()
 * for loaders without the context; it usually calls this function with a NULL context.
 *
 * @optional A plugin may leave this entry point out; the loader then calls entropic_mcp_server_execute().
 * When it is there, the loader calls it for every tool call instead.
 *
 * @param server The server instance.
 * @param tool_name The tool's name without the server prefix; borrowed for the call.
 * @param args_json The tool's arguments as a JSON object string; borrowed for the call.
 * @param context The call's context, valid until this function returns; NULL when the caller has none.
 * @returns The envelope as a JSON string owned by the caller, to be released with entropic_free().
 */
export declare function entropic_mcp_server_execute_with_context(
  server: entropic_mcp_server_t,
  tool_name: c_const_char_ptr,
  args_json: c_const_char_ptr,
  context: ConstPointer<entropic_call_context_t>,
): c_char_ptr;

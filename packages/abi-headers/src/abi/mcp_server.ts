// ABI definition of entropic/interfaces/i_mcp_server.h: the nine plugin entry points and their types.
import type {
  c_char_ptr,
  c_const_char_ptr,
  c_int,
  c_void,
  c_void_ptr,
  HeaderSpec,
  OpaqueHandle,
} from './ctypes.js';
import type { entropic_error_t } from './error.js';

/**
 * The C interface an MCP server plugin implements.
 *
 * A plugin is a shared library that defines the nine entry points declared here. The engine
 * opens it at run time, checks that it was built for the same plugin API version, creates one
 * server instance and mounts that instance's tools under the name the instance reports.
 *
 * @loading List the library path in the plugins list of the mcp section of the engine's YAML
 * configuration. The
 * loader opens each listed library with RTLD_NOW and RTLD_LOCAL, looks up all nine entry points
 * (reporting every missing one by name), compares entropic_plugin_api_version() with
 * ENTROPIC_MCP_PLUGIN_API_VERSION, then calls entropic_create_server() and
 * entropic_mcp_server_name(). A library that cannot be opened, lacks an entry point, returns a
 * NULL handle, reports an empty name or a name already in use fails with
 * ENTROPIC_ERROR_PLUGIN_LOAD_FAILED; a different API version fails with
 * ENTROPIC_ERROR_PLUGIN_VERSION_MISMATCH. A configured plugin that fails is reported, never
 * skipped in silence. After a successful load the loader calls
 * entropic_mcp_server_set_working_dir() with the project directory, and the tools become
 * reachable as "<server name>.<tool name>".
 *
 * @ownership Strings returned by entropic_mcp_server_list_tools() and
 * entropic_mcp_server_execute() belong to the caller, who releases them with the same plugin's
 * entropic_free(). The string returned by entropic_mcp_server_name() belongs to the server and
 * stays valid until the handle is destroyed. Every string passed in (tool name, arguments,
 * configuration, path) is only borrowed for the duration of the call.
 *
 * @threading Calls on one handle never overlap: execute, configure and set_working_dir are
 * serialised by the engine, so a plugin needs no lock for the state of one instance. Calls on
 * different handles may run at the same time, in any order, and any thread may make a call, so
 * thread-local storage must not carry data from one call to the next. Destroying a handle happens
 * after every other call on it has returned.
 *
 * @descriptors entropic_mcp_server_list_tools() answers a JSON array of tool descriptors, each
 * an object with "name", "description" and "inputSchema" (camelCase), for example
 * [{"name":"echo","description":"Echo the text back","inputSchema":{"type":"object",
 * "properties":{"text":{"type":"string"}},"required":["text"]}}].
 *
 * @visibility Every entry point is declared with ENTROPIC_EXPORT. A plugin built with
 * -fvisibility=hidden that defines the entry points without any attribute still exports all
 * nine, because the attribute on these declarations applies to the definitions too. Without it
 * such a library would export nothing and every symbol lookup in the loader would fail.
 *
 * @lock The signatures, the opaque handle type, the layout of entropic_state_provider_t and the
 * macro and typedef contracts of this header are locked for each API version. Changing any of
 * them breaks plugins already built and requires a new ENTROPIC_MCP_PLUGIN_API_VERSION. Changes
 * to comments and to the export attribute are not breaking: a plugin built against older headers
 * of the same API version loads into a newer engine unchanged.
 */
export const header = {
  path: 'entropic/interfaces/i_mcp_server.h',
  includes: ['stddef.h', 'entropic/entropic_export.h', 'entropic/types/error.h'],
} as const satisfies HeaderSpec;

/** Opaque handle to one server instance created by a plugin. */
export type entropic_mcp_server_t = OpaqueHandle<'entropic_mcp_server'>;

/**
 * Reports the plugin API version the plugin was compiled against.
 *
 * Implemented by the plugin and called by the loader before anything else. Return
 * ENTROPIC_MCP_PLUGIN_API_VERSION; any other value makes the loader reject the plugin with
 * ENTROPIC_ERROR_PLUGIN_VERSION_MISMATCH.
 *
 * @returns The plugin API version of the headers the plugin was built with.
 */
export declare function entropic_plugin_api_version(): c_int;

/**
 * Creates the plugin's server instance.
 *
 * Implemented by the plugin and called once per configured library. It takes no parameters so
 * that every plugin has the same signature; settings arrive later through
 * entropic_mcp_server_configure(). The engine owns the returned handle and releases it with
 * entropic_mcp_server_destroy().
 *
 * @returns A new handle, or NULL when the instance could not be created.
 */
export declare function entropic_create_server(): entropic_mcp_server_t;

/**
 * Returns the server's name, which prefixes each of its tool names.
 *
 * @param server The server instance.
 * @returns A NUL-terminated name owned by the server, valid until the handle is destroyed. It
 * must not be empty.
 */
export declare function entropic_mcp_server_name(server: entropic_mcp_server_t): c_const_char_ptr;

/**
 * Describes the server's tools as a JSON array of tool descriptors.
 *
 * @param server The server instance.
 * @returns A JSON array string owned by the caller, to be released with entropic_free().
 */
export declare function entropic_mcp_server_list_tools(server: entropic_mcp_server_t): c_char_ptr;

/**
 * Runs one tool and answers with a ServerResponse envelope.
 *
 * The envelope is a JSON object {"result":"...","directives":[...]}: "result" is a string and
 * "directives" lists the side effects the engine should apply, each as {"type":"<name>"}, and
 * is empty when the tool has none.
 *
 * @param server The server instance.
 * @param tool_name The tool's name without the server prefix; borrowed for the call.
 * @param args_json The tool's arguments as a JSON object string; borrowed for the call.
 * @returns The envelope as a JSON string owned by the caller, to be released with
 * entropic_free().
 */
export declare function entropic_mcp_server_execute(
  server: entropic_mcp_server_t,
  tool_name: c_const_char_ptr,
  args_json: c_const_char_ptr,
): c_char_ptr;

/**
 * Passes settings to a server after it was created.
 *
 * @param server The server instance.
 * @param config_json The settings as a JSON string; borrowed for the call.
 * @returns ENTROPIC_OK when the settings were accepted, otherwise the reason they were not.
 */
export declare function entropic_mcp_server_configure(
  server: entropic_mcp_server_t,
  config_json: c_const_char_ptr,
): entropic_error_t;

/**
 * Tells the server which directory its tools work in.
 *
 * Servers that do not touch the file system may ignore it and return ENTROPIC_OK. The engine may
 * call it again later to move the server to another directory.
 *
 * @param server The server instance.
 * @param path The directory path; borrowed for the call.
 * @returns ENTROPIC_OK when the directory was taken, otherwise the reason it was not.
 */
export declare function entropic_mcp_server_set_working_dir(
  server: entropic_mcp_server_t,
  path: c_const_char_ptr,
): entropic_error_t;

/**
 * Destroys a server instance and everything it owns.
 *
 * @param server The server instance; NULL is accepted and does nothing.
 */
export declare function entropic_mcp_server_destroy(server: entropic_mcp_server_t): c_void;

/**
 * Releases a string the plugin handed to its caller.
 *
 * @param ptr A string returned by entropic_mcp_server_list_tools() or
 * entropic_mcp_server_execute(); NULL is accepted and does nothing.
 */
export declare function entropic_free(ptr: c_void_ptr): c_void;

/**
 * Read-only access to engine state, for tools that inspect the engine.
 *
 * Each callback returns a JSON string owned by the caller and receives user_data as its last
 * argument. A callback may be NULL when the engine does not offer that view.
 */
export interface entropic_state_provider_t {
  /** The effective configuration. */
  get_config: (user_data: c_void_ptr) => c_char_ptr;
  /** The configured identities. */
  get_identities: (user_data: c_void_ptr) => c_char_ptr;
  /** The registered tools. */
  get_tools: (user_data: c_void_ptr) => c_char_ptr;
  /** Up to max_entries of the most recent conversation entries. */
  get_history: (max_entries: c_int, user_data: c_void_ptr) => c_char_ptr;
  /** The engine's current state. */
  get_state: (user_data: c_void_ptr) => c_char_ptr;
  /** Counters and timings. */
  get_metrics: (user_data: c_void_ptr) => c_char_ptr;
  /** One section of the bundled documentation. */
  get_docs: (section: c_const_char_ptr, user_data: c_void_ptr) => c_char_ptr;
  /** Up to max_results past delegations matching query. */
  search_delegations: (query: c_const_char_ptr, max_results: c_int, user_data: c_void_ptr) => c_char_ptr;
  /** The conversation of one past delegation. */
  load_delegation_conversation: (delegation_id: c_const_char_ptr, user_data: c_void_ptr) => c_char_ptr;
  /** Which models are resident in memory. */
  get_residency: (user_data: c_void_ptr) => c_char_ptr;
  /** Passed unchanged as the last argument of every callback. */
  user_data: c_void_ptr;
}

/**
 * The plugin API version these headers describe.
 *
 * It changes only when the binary interface changes: a plugin built for another version is
 * rejected by the loader with ENTROPIC_ERROR_PLUGIN_VERSION_MISMATCH.
 */
export declare const ENTROPIC_MCP_PLUGIN_API_VERSION: 1;

// ABI definition of entropic/types/error.h: the status codes every plugin call returns.
import type { HeaderSpec } from './ctypes.js';

/**
 * Status codes returned across the plugin boundary.
 *
 * One list is shared by the engine, the loader and every plugin. Codes are numbered from 0
 * without gaps; new codes are only ever appended after the last one.
 *
 * Unlike the engine's own error.h, this header declares no functions and no engine handle:
 * entropic_error_name, entropic_last_error and entropic_set_error_callback belong to the engine
 * library, which an MCP loader is not, and no loader provides them. A plugin that calls one fails
 * to load (undefined symbol); a plugin that needs the name of a code keeps its own table of the
 * names below.
 */
export const header = {
  path: 'entropic/types/error.h',
  includes: [],
} as const satisfies HeaderSpec;

/**
 * Result of a call: ENTROPIC_OK (0) on success, otherwise the reason it failed.
 *
 * A number outside the list has the name ENTROPIC_ERROR_UNKNOWN when turned into text.
 */
export declare enum entropic_error_t {
  /** The call succeeded. */
  ENTROPIC_OK = 0,
  /** An argument was NULL, malformed or out of range. */
  ENTROPIC_ERROR_INVALID_ARGUMENT = 1,
  /** A configuration document was rejected. */
  ENTROPIC_ERROR_INVALID_CONFIG = 2,
  /** The object is not in a state that allows this call. */
  ENTROPIC_ERROR_INVALID_STATE = 3,
  /** The requested model does not exist. */
  ENTROPIC_ERROR_MODEL_NOT_FOUND = 4,
  /** Loading a resource failed. */
  ENTROPIC_ERROR_LOAD_FAILED = 5,
  /** Generation failed. */
  ENTROPIC_ERROR_GENERATE_FAILED = 6,
  /** No tool has the requested name. */
  ENTROPIC_ERROR_TOOL_NOT_FOUND = 7,
  /** The caller is not allowed to do this. */
  ENTROPIC_ERROR_PERMISSION_DENIED = 8,
  /** A plugin reported an API version other than the loader's. */
  ENTROPIC_ERROR_PLUGIN_VERSION_MISMATCH = 9,
  /** A plugin could not be opened, lacked an entry point, or refused to start. */
  ENTROPIC_ERROR_PLUGIN_LOAD_FAILED = 10,
  /** The operation ran out of time. */
  ENTROPIC_ERROR_TIMEOUT = 11,
  /** The operation was cancelled by its caller. */
  ENTROPIC_ERROR_CANCELLED = 12,
  /** An allocation failed. */
  ENTROPIC_ERROR_OUT_OF_MEMORY = 13,
  /** Reading or writing a file or stream failed. */
  ENTROPIC_ERROR_IO = 14,
  /** An unexpected internal failure. */
  ENTROPIC_ERROR_INTERNAL = 15,
  /** A server with this name is already registered. */
  ENTROPIC_ERROR_SERVER_ALREADY_EXISTS = 16,
  /** No server has the requested name. */
  ENTROPIC_ERROR_SERVER_NOT_FOUND = 17,
  /** Connecting to a remote peer failed. */
  ENTROPIC_ERROR_CONNECTION_FAILED = 18,
  /** The handle is NULL or already destroyed. */
  ENTROPIC_ERROR_INVALID_HANDLE = 19,
  /** A tool ran and failed. */
  ENTROPIC_ERROR_TOOL_EXECUTION_FAILED = 20,
  /** Persistent storage failed. */
  ENTROPIC_ERROR_STORAGE_FAILED = 21,
  /** No identity has the requested name. */
  ENTROPIC_ERROR_IDENTITY_NOT_FOUND = 22,
  /** The component is already running. */
  ENTROPIC_ERROR_ALREADY_RUNNING = 23,
  /** The component is not running. */
  ENTROPIC_ERROR_NOT_RUNNING = 24,
  /** The call is declared but has no implementation. */
  ENTROPIC_ERROR_NOT_IMPLEMENTED = 25,
  /** The operation was interrupted before it finished. */
  ENTROPIC_ERROR_INTERRUPTED = 26,
  /** No adapter has the requested name. */
  ENTROPIC_ERROR_ADAPTER_NOT_FOUND = 27,
  /** Loading an adapter failed. */
  ENTROPIC_ERROR_ADAPTER_LOAD_FAILED = 28,
  /** Switching adapters failed. */
  ENTROPIC_ERROR_ADAPTER_SWAP_FAILED = 29,
  /** An adapter operation was cancelled. */
  ENTROPIC_ERROR_ADAPTER_CANCELLED = 30,
  /** No grammar has the requested name. */
  ENTROPIC_ERROR_GRAMMAR_NOT_FOUND = 31,
  /** A grammar failed to parse. */
  ENTROPIC_ERROR_GRAMMAR_INVALID = 32,
  /** An MCP access key was refused. */
  ENTROPIC_ERROR_MCP_KEY_DENIED = 33,
  /** A configured limit was reached. */
  ENTROPIC_ERROR_LIMIT_REACHED = 34,
  /** The item already exists. */
  ENTROPIC_ERROR_ALREADY_EXISTS = 35,
  /** The item is in use and cannot be changed now. */
  ENTROPIC_ERROR_IN_USE = 36,
  /** No profile has the requested name. */
  ENTROPIC_ERROR_PROFILE_NOT_FOUND = 37,
  /** A time budget was used up. */
  ENTROPIC_ERROR_TIME_LIMIT_EXCEEDED = 38,
  /** Input failed validation. */
  ENTROPIC_ERROR_VALIDATION_FAILED = 39,
  /** Compacting a conversation failed. */
  ENTROPIC_ERROR_COMPACTION_FAILED = 40,
  /** The model is loaded but not active. */
  ENTROPIC_ERROR_MODEL_NOT_ACTIVE = 41,
  /** The evaluation context has no room left. */
  ENTROPIC_ERROR_EVAL_CONTEXT_FULL = 42,
  /** Evaluation failed. */
  ENTROPIC_ERROR_EVAL_FAILED = 43,
  /** An image could not be loaded. */
  ENTROPIC_ERROR_IMAGE_LOAD_FAILED = 44,
  /** An image exceeds the allowed size. */
  ENTROPIC_ERROR_IMAGE_TOO_LARGE = 45,
  /** A multimodal projector could not be loaded. */
  ENTROPIC_ERROR_MMPROJ_LOAD_FAILED = 46,
  /** The URL scheme or form is not supported. */
  ENTROPIC_ERROR_UNSUPPORTED_URL = 47,
  /** The operation is not supported here. */
  ENTROPIC_ERROR_NOT_SUPPORTED = 48,
  /** Saved state does not fit the current setup. */
  ENTROPIC_ERROR_STATE_INCOMPATIBLE = 49,
  /** No tier can handle images. */
  ENTROPIC_ERROR_NO_VISION_TIER = 50,
  /** A bounded queue is full. */
  ENTROPIC_ERROR_QUEUE_FULL = 51,
  /** The draft model's architecture does not fit the main model. */
  ENTROPIC_ERROR_SPECULATIVE_INCOMPATIBLE_ARCH = 52,
  /** The model is too large for its tier. */
  ENTROPIC_ERROR_TIER_MODEL_TOO_LARGE = 53,
  /** The speculative decoding settings do not fit together. */
  ENTROPIC_ERROR_SPECULATIVE_INCOMPATIBLE_CONFIG = 54,
}

// The contract's facts, written out literally (from CONTRACT.md), so a wrong model or a wrong
// definition fails the tests instead of agreeing with itself.

/** entropic_error_t: [name, value], in order. */
export const CONTRACT_ERRORS: readonly (readonly [string, number])[] = [
  ['ENTROPIC_OK', 0],
  ['ENTROPIC_ERROR_INVALID_ARGUMENT', 1],
  ['ENTROPIC_ERROR_INVALID_CONFIG', 2],
  ['ENTROPIC_ERROR_INVALID_STATE', 3],
  ['ENTROPIC_ERROR_MODEL_NOT_FOUND', 4],
  ['ENTROPIC_ERROR_LOAD_FAILED', 5],
  ['ENTROPIC_ERROR_GENERATE_FAILED', 6],
  ['ENTROPIC_ERROR_TOOL_NOT_FOUND', 7],
  ['ENTROPIC_ERROR_PERMISSION_DENIED', 8],
  ['ENTROPIC_ERROR_PLUGIN_VERSION_MISMATCH', 9],
  ['ENTROPIC_ERROR_PLUGIN_LOAD_FAILED', 10],
  ['ENTROPIC_ERROR_TIMEOUT', 11],
  ['ENTROPIC_ERROR_CANCELLED', 12],
  ['ENTROPIC_ERROR_OUT_OF_MEMORY', 13],
  ['ENTROPIC_ERROR_IO', 14],
  ['ENTROPIC_ERROR_INTERNAL', 15],
  ['ENTROPIC_ERROR_SERVER_ALREADY_EXISTS', 16],
  ['ENTROPIC_ERROR_SERVER_NOT_FOUND', 17],
  ['ENTROPIC_ERROR_CONNECTION_FAILED', 18],
  ['ENTROPIC_ERROR_INVALID_HANDLE', 19],
  ['ENTROPIC_ERROR_TOOL_EXECUTION_FAILED', 20],
  ['ENTROPIC_ERROR_STORAGE_FAILED', 21],
  ['ENTROPIC_ERROR_IDENTITY_NOT_FOUND', 22],
  ['ENTROPIC_ERROR_ALREADY_RUNNING', 23],
  ['ENTROPIC_ERROR_NOT_RUNNING', 24],
  ['ENTROPIC_ERROR_NOT_IMPLEMENTED', 25],
  ['ENTROPIC_ERROR_INTERRUPTED', 26],
  ['ENTROPIC_ERROR_ADAPTER_NOT_FOUND', 27],
  ['ENTROPIC_ERROR_ADAPTER_LOAD_FAILED', 28],
  ['ENTROPIC_ERROR_ADAPTER_SWAP_FAILED', 29],
  ['ENTROPIC_ERROR_ADAPTER_CANCELLED', 30],
  ['ENTROPIC_ERROR_GRAMMAR_NOT_FOUND', 31],
  ['ENTROPIC_ERROR_GRAMMAR_INVALID', 32],
  ['ENTROPIC_ERROR_MCP_KEY_DENIED', 33],
  ['ENTROPIC_ERROR_LIMIT_REACHED', 34],
  ['ENTROPIC_ERROR_ALREADY_EXISTS', 35],
  ['ENTROPIC_ERROR_IN_USE', 36],
  ['ENTROPIC_ERROR_PROFILE_NOT_FOUND', 37],
  ['ENTROPIC_ERROR_TIME_LIMIT_EXCEEDED', 38],
  ['ENTROPIC_ERROR_VALIDATION_FAILED', 39],
  ['ENTROPIC_ERROR_COMPACTION_FAILED', 40],
  ['ENTROPIC_ERROR_MODEL_NOT_ACTIVE', 41],
  ['ENTROPIC_ERROR_EVAL_CONTEXT_FULL', 42],
  ['ENTROPIC_ERROR_EVAL_FAILED', 43],
  ['ENTROPIC_ERROR_IMAGE_LOAD_FAILED', 44],
  ['ENTROPIC_ERROR_IMAGE_TOO_LARGE', 45],
  ['ENTROPIC_ERROR_MMPROJ_LOAD_FAILED', 46],
  ['ENTROPIC_ERROR_UNSUPPORTED_URL', 47],
  ['ENTROPIC_ERROR_NOT_SUPPORTED', 48],
  ['ENTROPIC_ERROR_STATE_INCOMPATIBLE', 49],
  ['ENTROPIC_ERROR_NO_VISION_TIER', 50],
  ['ENTROPIC_ERROR_QUEUE_FULL', 51],
  ['ENTROPIC_ERROR_SPECULATIVE_INCOMPATIBLE_ARCH', 52],
  ['ENTROPIC_ERROR_TIER_MODEL_TOO_LARGE', 53],
  ['ENTROPIC_ERROR_SPECULATIVE_INCOMPATIBLE_CONFIG', 54],
];

/** The nine entry points in contract order: [name, C return type, C parameter types]. */
export const CONTRACT_ENTRY_POINTS: readonly (readonly [string, string, readonly string[]])[] = [
  ['entropic_plugin_api_version', 'int', []],
  ['entropic_create_server', 'entropic_mcp_server_t', []],
  ['entropic_mcp_server_name', 'const char*', ['entropic_mcp_server_t']],
  ['entropic_mcp_server_list_tools', 'char*', ['entropic_mcp_server_t']],
  ['entropic_mcp_server_execute', 'char*', ['entropic_mcp_server_t', 'const char*', 'const char*']],
  ['entropic_mcp_server_configure', 'entropic_error_t', ['entropic_mcp_server_t', 'const char*']],
  ['entropic_mcp_server_set_working_dir', 'entropic_error_t', ['entropic_mcp_server_t', 'const char*']],
  ['entropic_mcp_server_destroy', 'void', ['entropic_mcp_server_t']],
  ['entropic_free', 'void', ['void*']],
];

/** entropic_state_provider_t members in order: [name, offset on x86-64, C type]. */
export const CONTRACT_STATE_PROVIDER: readonly (readonly [string, number, string])[] = [
  ['get_config', 0, 'char* (*)(void*)'],
  ['get_identities', 8, 'char* (*)(void*)'],
  ['get_tools', 16, 'char* (*)(void*)'],
  ['get_history', 24, 'char* (*)(int, void*)'],
  ['get_state', 32, 'char* (*)(void*)'],
  ['get_metrics', 40, 'char* (*)(void*)'],
  ['get_docs', 48, 'char* (*)(const char*, void*)'],
  ['search_delegations', 56, 'char* (*)(const char*, int, void*)'],
  ['load_delegation_conversation', 64, 'char* (*)(const char*, void*)'],
  ['get_residency', 72, 'char* (*)(void*)'],
  ['user_data', 80, 'void*'],
];

/** sizeof(entropic_state_provider_t) on x86-64. */
export const CONTRACT_STATE_PROVIDER_SIZE = 88;

export const CONTRACT_API_VERSION = 1;

export const CONTRACT_HEADERS = [
  'entropic/entropic_export.h',
  'entropic/interfaces/i_mcp_server.h',
  'entropic/types/error.h',
] as const;

/** Headers of our own additive extensions of API 1 (the plugin context), beside the contract's. */
export const EXTENSION_HEADERS = ['entropic/interfaces/i_mcp_context.h'] as const;

export const CONTRACT_DIRECTIVES = [
  'stop_processing',
  'tier_change',
  'delegate',
  'pipeline',
  'complete',
  'clear_self_todos',
  'inject_context',
  'prune_messages',
  'context_anchor',
  'phase_change',
  'notify_presenter',
] as const;

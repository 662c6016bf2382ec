// Tests of the package entry: its folders, lock path and contract tables.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DIRECTIVE_TYPES,
  ENTRY_POINTS,
  ERROR_CODES,
  errorName,
  includeDir,
  LOG_LEVELS,
  lockPath,
  nativeDir,
  OPTIONAL_ENTRY_POINTS,
  PLUGIN_API_VERSION,
  UNKNOWN_ERROR_NAME,
} from './index.js';

describe('@entropic-mcp/abi-headers', () => {
  it('points at its include folder, native folder and lock', () => {
    expect(existsSync(join(includeDir, 'entropic', 'interfaces', 'i_mcp_server.h'))).toBe(true);
    expect(existsSync(join(includeDir, 'entropic', 'interfaces', 'i_mcp_context.h'))).toBe(true);
    expect(existsSync(join(includeDir, 'entropic', 'types', 'error.h'))).toBe(true);
    expect(existsSync(join(includeDir, 'entropic', 'entropic_export.h'))).toBe(true);
    expect(existsSync(join(nativeDir, 'entropic_abi_tables.h'))).toBe(true);
    expect(existsSync(lockPath)).toBe(true);
  });

  it('exports the contract tables', () => {
    expect(PLUGIN_API_VERSION).toBe(1);
    expect(ENTRY_POINTS).toEqual([
      'entropic_plugin_api_version',
      'entropic_create_server',
      'entropic_mcp_server_name',
      'entropic_mcp_server_list_tools',
      'entropic_mcp_server_execute',
      'entropic_mcp_server_configure',
      'entropic_mcp_server_set_working_dir',
      'entropic_mcp_server_destroy',
      'entropic_free',
    ]);
    expect(OPTIONAL_ENTRY_POINTS).toEqual(['entropic_mcp_server_execute_with_context']);
    expect(LOG_LEVELS).toEqual([
      'debug',
      'info',
      'notice',
      'warning',
      'error',
      'critical',
      'alert',
      'emergency',
    ]);
    expect(Object.keys(ERROR_CODES)).toHaveLength(55);
    expect(ERROR_CODES.ENTROPIC_OK).toBe(0);
    expect(ERROR_CODES.ENTROPIC_ERROR_PLUGIN_VERSION_MISMATCH).toBe(9);
    expect(ERROR_CODES.ENTROPIC_ERROR_PLUGIN_LOAD_FAILED).toBe(10);
    expect(ERROR_CODES.ENTROPIC_ERROR_SPECULATIVE_INCOMPATIBLE_CONFIG).toBe(54);
    expect(DIRECTIVE_TYPES[0]).toBe('stop_processing');
    expect(DIRECTIVE_TYPES[10]).toBe('notify_presenter');
    expect(DIRECTIVE_TYPES).toHaveLength(11);
  });

  it('names error codes and answers ENTROPIC_ERROR_UNKNOWN out of range', () => {
    expect(errorName(0)).toBe('ENTROPIC_OK');
    expect(errorName(10)).toBe('ENTROPIC_ERROR_PLUGIN_LOAD_FAILED');
    expect(errorName(54)).toBe('ENTROPIC_ERROR_SPECULATIVE_INCOMPATIBLE_CONFIG');
    for (const bad of [55, -1, 1.5, Number.NaN, 1000]) expect(errorName(bad)).toBe(UNKNOWN_ERROR_NAME);
    expect(UNKNOWN_ERROR_NAME).toBe('ENTROPIC_ERROR_UNKNOWN');
  });
});

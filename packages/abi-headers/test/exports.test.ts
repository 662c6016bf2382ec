/** Pins the public surface of the built package: its runtime names and its type-only names. */

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { typeOnlyExports } from '../../server/test/support/declared-exports.js';

describe('public surface', () => {
  it('the main entry exports exactly the documented names', async () => {
    const main = await import('@entropic-mcp/abi-headers');
    expect(Object.keys(main).sort()).toEqual([
      'DIRECTIVE_TYPES',
      'ENTRY_POINTS',
      'ERROR_CODES',
      'LOG_LEVELS',
      'OPTIONAL_ENTRY_POINTS',
      'PLUGIN_API_VERSION',
      'UNKNOWN_ERROR_NAME',
      'errorName',
      'includeDir',
      'lockPath',
      'nativeDir',
    ]);
  });

  it('the main entry declares exactly these type-only names', async () => {
    const main = await import('@entropic-mcp/abi-headers');
    const dts = fileURLToPath(new URL('../dist/index.d.ts', import.meta.url));
    expect(typeOnlyExports(dts, main)).toEqual([
      'DirectiveType',
      'EntryPointName',
      'ErrorName',
      'LogLevelName',
      'OptionalEntryPointName',
    ]);
  });
});

/** Pins the public surface of the built package: its runtime names and its type-only names. */

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { typeOnlyExports } from '../../server/test/support/declared-exports.js';

describe('public surface', () => {
  it('the main entry exports exactly the documented names', async () => {
    const main = await import('@entropic-mcp/codegen');
    expect(Object.keys(main).sort()).toEqual([
      'AbiDefinitionError',
      'C_TABLES_PATH',
      'C_VOCABULARY',
      'GENERATE_COMMAND',
      'INCLUDE_DIR',
      'TS_TABLES_PATH',
      'VERSION_MACRO',
      'abiHeadersRoot',
      'canonicalJson',
      'defaultDefinitionsDir',
      'defaultLockPath',
      'diffLocked',
      'entryPoints',
      'errorEnum',
      'fingerprint',
      'fingerprintOf',
      'generateAll',
      'lockEntry',
      'lockedSubset',
      'parseLock',
      'readAbiModel',
      'renderHeader',
      'renderHeaders',
      'renderLock',
      'renderTables',
    ]);
  });

  it('the main entry declares exactly these type-only names', async () => {
    const main = await import('@entropic-mcp/codegen');
    const dts = fileURLToPath(new URL('../dist/index.d.ts', import.meta.url));
    expect(typeOnlyExports(dts, main)).toEqual([
      'AbiDefine',
      'AbiDoc',
      'AbiEnum',
      'AbiExportMacro',
      'AbiFunction',
      'AbiHandle',
      'AbiHeader',
      'AbiItem',
      'AbiLock',
      'AbiLockEntry',
      'AbiModel',
      'AbiParam',
      'AbiStruct',
      'AbiType',
      'BuiltinSpelling',
      'GenerateOptions',
      'LockDiff',
      'LockedSubset',
      'LockedType',
    ]);
  });
});

/** Pins the public surface of the built package: its runtime names and its type-only names. */

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { typeOnlyExports } from '../../server/test/support/declared-exports.js';
import { documentedCodes, errorClasses, outsideBase } from '../../server/test/support/error-codes.js';
import { ToolMissingError } from '../src/abigail/tools.js';
import { RecordError } from '../src/check/records.js';
import { UsageError } from '../src/command.js';
import { AbiDefinitionError, CodegenError } from '../src/model/errors.js';

describe('public surface', () => {
  it('the main entry exports exactly the documented names', async () => {
    const main = await import('@entropic-mcp/codegen');
    expect(Object.keys(main).sort()).toEqual([
      'AbiDefinitionError',
      'C_TABLES_PATH',
      'C_VOCABULARY',
      'CodegenError',
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

  it('every error extends CodegenError, one UsageError for every command, each code in docs/errors.md', async () => {
    const main = await import('@entropic-mcp/codegen');
    expect(errorClasses(main)).toEqual(['AbiDefinitionError', 'CodegenError']);
    expect(outsideBase(main, main.CodegenError)).toEqual([]);
    // The sources' classes (the built ones are the same code): the commands' errors are not exported.
    const errors = [
      new AbiDefinitionError('f.ts', 1, 'm'),
      new UsageError('m'),
      new ToolMissingError('abidw', 'hint'),
      new RecordError('m'),
    ];
    expect(errors.every((e) => e instanceof CodegenError)).toBe(true);
    const codes = errors.map((e) => e.code);
    expect(codes).toEqual(['ABI_DEFINITION_INVALID', 'ABI_USAGE', 'ABI_TOOL_MISSING', 'ABI_RECORD_REFUSED']);
    expect(documentedCodes('@entropic-mcp/codegen')).toEqual(codes);
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

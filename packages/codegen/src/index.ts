// Public surface of @entropic-mcp/codegen: model reading, rendering, lock and diff.
export { GENERATE_COMMAND } from './emit/banner.js';
export { renderHeader, renderHeaders } from './emit/headers.js';
export { C_TABLES_PATH, renderTables, TS_TABLES_PATH } from './emit/tables.js';
export { type GenerateOptions, generateAll, INCLUDE_DIR } from './generate.js';
export { diffLocked, type LockDiff } from './lock/diff.js';
export { canonicalJson, fingerprint, fingerprintOf } from './lock/fingerprint.js';
export { type AbiLock, type AbiLockEntry, lockEntry, parseLock, renderLock } from './lock/lock-file.js';
export { type LockedSubset, type LockedType, lockedSubset } from './lock/subset.js';
export { AbiDefinitionError, CodegenError } from './model/errors.js';
export { entryPoints, errorEnum } from './model/queries.js';
export { readAbiModel, VERSION_MACRO } from './model/read-model.js';
export type {
  AbiDefine,
  AbiDoc,
  AbiEnum,
  AbiExportMacro,
  AbiFunction,
  AbiHandle,
  AbiHeader,
  AbiItem,
  AbiModel,
  AbiParam,
  AbiStruct,
  AbiType,
  BuiltinSpelling,
} from './model/types.js';
export { C_VOCABULARY } from './model/vocabulary.js';
export { abiHeadersRoot, defaultDefinitionsDir, defaultLockPath } from './paths.js';

// Which edits of the definitions change the ABI fingerprint and which do not.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AbiDefinitionError,
  defaultDefinitionsDir,
  diffLocked,
  fingerprint,
  lockedSubset,
  readAbiModel,
  renderHeaders,
} from '../src/index.js';
import { tempDir } from './support/cc.js';

const tmp = tempDir('entropic-defs');
afterAll(tmp.cleanup);
let counter = 0;

/** A copy of the real definitions with one text replacement applied to one file. */
function edited(file: string, from: string | RegExp, to: string): string {
  const dir = join(tmp.dir, `defs-${counter++}`);
  cpSync(defaultDefinitionsDir(), dir, { recursive: true });
  const path = join(dir, file);
  const before = readFileSync(path, 'utf8');
  const after = before.replace(from, to);
  expect(after, `the edit of ${file} must change something`).not.toBe(before);
  writeFileSync(path, after);
  return dir;
}

const base = readAbiModel();
const baseFingerprint = fingerprint(base);
const read = (dir: string) => readAbiModel({ definitionsDir: dir });

describe('fingerprint: what does not count', () => {
  it('a documentation-only change keeps the fingerprint (but changes the header text)', () => {
    const model = read(edited('mcp_server.ts', 'Destroys a server instance', 'Tears down a server instance'));
    expect(fingerprint(model)).toBe(baseFingerprint);
    expect(renderHeaders(model)['entropic/interfaces/i_mcp_server.h']).toContain(
      'Tears down a server instance',
    );
  });

  it('a change of the export attribute spelling keeps the fingerprint', () => {
    const model = read(
      edited('export.ts', `'__attribute__((visibility("default")))'`, "'__attribute__((used))'"),
    );
    expect(fingerprint(model)).toBe(baseFingerprint);
    expect(renderHeaders(model)['entropic/entropic_export.h']).toContain('__attribute__((used))');
  });

  it('renaming a parameter keeps the fingerprint (C linkage ignores names)', () => {
    const model = read(
      edited('mcp_server.ts', 'entropic_free(ptr: c_void_ptr)', 'entropic_free(memory: c_void_ptr)'),
    );
    expect(fingerprint(model)).toBe(baseFingerprint);
    expect(renderHeaders(model)['entropic/interfaces/i_mcp_server.h']).toContain(
      'entropic_free(void* memory)',
    );
  });

  it('reordering function declarations keeps the fingerprint', () => {
    const dir = edited(
      'mcp_server.ts',
      /(\/\*\*\n \* Releases a string[\s\S]*?entropic_free\(ptr: c_void_ptr\): c_void;\n)/,
      '',
    );
    const path = join(dir, 'mcp_server.ts');
    const freeDecl = readFileSync(join(defaultDefinitionsDir(), 'mcp_server.ts'), 'utf8').match(
      /\/\*\*\n \* Releases a string[\s\S]*?entropic_free\(ptr: c_void_ptr\): c_void;\n/,
    )![0];
    writeFileSync(
      path,
      readFileSync(path, 'utf8').replace('/** Opaque handle', `${freeDecl}\n/** Opaque handle`),
    );
    const model = read(dir);
    expect(fingerprint(model)).toBe(baseFingerprint);
  });
});

describe('fingerprint: what counts', () => {
  it('a parameter type change', () => {
    const model = read(edited('mcp_server.ts', 'path: c_const_char_ptr', 'path: c_char_ptr'));
    expect(fingerprint(model)).not.toBe(baseFingerprint);
    const diff = diffLocked(lockedSubset(base), lockedSubset(model));
    expect(diff.kind).toBe('breaking');
    expect(diff.breaking.join('\n')).toContain('function entropic_mcp_server_set_working_dir changed');
  });

  it('reordering struct members', () => {
    const model = read(
      edited(
        'mcp_server.ts',
        /( {2}\/\*\* The effective configuration\. \*\/\n {2}get_config: .*\n)( {2}\/\*\* The configured identities\. \*\/\n {2}get_identities: .*\n)/,
        '$2$1',
      ),
    );
    expect(fingerprint(model)).not.toBe(baseFingerprint);
    expect(diffLocked(lockedSubset(base), lockedSubset(model)).breaking.join('\n')).toContain(
      'struct entropic_state_provider_t changed',
    );
  });

  it('renumbering an enumerator is breaking', () => {
    const model = read(edited('error.ts', 'ENTROPIC_ERROR_TIMEOUT = 11', 'ENTROPIC_ERROR_TIMEOUT = 111'));
    expect(fingerprint(model)).not.toBe(baseFingerprint);
    expect(diffLocked(lockedSubset(base), lockedSubset(model)).kind).toBe('breaking');
  });

  it('the handle tag', () => {
    const model = read(
      edited('mcp_server.ts', "OpaqueHandle<'entropic_mcp_server'>", "OpaqueHandle<'mcp_server'>"),
    );
    expect(fingerprint(model)).not.toBe(baseFingerprint);
  });
});

describe('enumerator additions', () => {
  it('appending after the last enumerator changes the fingerprint but is only additive', () => {
    const model = read(
      edited(
        'error.ts',
        'ENTROPIC_ERROR_SPECULATIVE_INCOMPATIBLE_CONFIG = 54,',
        '$&\n  ENTROPIC_ERROR_NEW_THING = 55,',
      ),
    );
    expect(fingerprint(model)).not.toBe(baseFingerprint);
    const diff = diffLocked(lockedSubset(base), lockedSubset(model));
    expect(diff).toEqual({
      kind: 'additive',
      additive: ['enum entropic_error_t: appended ENTROPIC_ERROR_NEW_THING = 55'],
      breaking: [],
    });
  });

  it('inserting in the middle is breaking', () => {
    const model = read(
      edited(
        'error.ts',
        '  ENTROPIC_ERROR_IO = 14,',
        '  ENTROPIC_ERROR_NEW_THING = 14,\n  ENTROPIC_ERROR_IO = 15,',
      ),
    );
    expect(diffLocked(lockedSubset(base), lockedSubset(model)).kind).toBe('breaking');
  });
});

describe('the reader refuses what it cannot map', () => {
  it('an unmapped TypeScript type is an error naming the file, line and type', () => {
    const dir = edited('mcp_server.ts', 'tool_name: c_const_char_ptr', 'tool_name: string');
    const line =
      readFileSync(join(dir, 'mcp_server.ts'), 'utf8').split('\n').indexOf('  tool_name: string,') + 1;
    expect(() => read(dir)).toThrow(AbiDefinitionError);
    expect(() => read(dir)).toThrow(`${join(dir, 'mcp_server.ts')}:${line}: unmapped type 'string'`);
  });

  it('a dotted JSDoc tag (split by the parser) is an error, never dropped', () => {
    const dir = edited('mcp_server.ts', '@returns A new handle', '@c.returns A new handle');
    expect(() => read(dir)).toThrow(/unknown JSDoc tag @c\b/);
  });

  it('a comment opener inside documentation is refused (gcc -Wcomment)', () => {
    const dir = edited('error.ts', 'The call succeeded.', 'The call succeeded; see a /* b');
    expect(() => read(dir)).toThrow(/must not contain/);
  });

  it('a header that uses a typedef without including its header is refused', () => {
    const dir = edited('mcp_server.ts', ", 'entropic/types/error.h']", ']');
    expect(() => read(dir)).toThrow(
      'entropic/interfaces/i_mcp_server.h uses entropic_error_t but does not include entropic/types/error.h',
    );
  });
});

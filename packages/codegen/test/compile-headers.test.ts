// Compiles the generated headers as C and C++ with warnings as errors.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { abiHeadersRoot } from '../src/index.js';
import { attempt, C_FLAGS, CXX_FLAGS, tempDir } from './support/cc.js';
import { CONTRACT_HEADERS, EXTENSION_HEADERS } from './support/contract-facts.js';

const HEADERS = [...CONTRACT_HEADERS, ...EXTENSION_HEADERS];

const include = join(abiHeadersRoot(), 'include');
const native = join(abiHeadersRoot(), 'native');
const tmp = tempDir('entropic-headers');
afterAll(tmp.cleanup);

/** Compiles `source` (which includes `headers`) with the given compiler and flags, to an object file. */
function compile(compiler: string, flags: string[], ext: string, headers: string[], body = ''): string {
  const file = join(
    tmp.dir,
    `tu-${compiler}-${headers.length}-${Math.random().toString(36).slice(2)}.${ext}`,
  );
  writeFileSync(
    file,
    `${headers.map((h) => `#include <${h}>`).join('\n')}\n${body}\nint entropic_test_anchor;\n`,
  );
  const r = attempt(compiler, [...flags, '-I', include, '-I', native, '-c', file, '-o', `${file}.o`]);
  return r.status === 0 ? '' : r.output;
}

describe.each([
  ['gcc', C_FLAGS, 'c'],
  ['g++', CXX_FLAGS, 'cpp'],
])('%s compiles the generated headers cleanly', (compiler, flags, ext) => {
  it('all the headers together, twice (pragma once)', () => {
    const all = [...HEADERS, ...HEADERS];
    expect(compile(compiler, flags, ext, all)).toBe('');
  });

  it.each(HEADERS)('%s on its own', (header) => {
    expect(compile(compiler, flags, ext, [header])).toBe('');
  });

  it('the plugin header and the private tables header, using every declaration', () => {
    const body = `
static int uses(void) {
  entropic_state_provider_t p;
  entropic_error_t e = ENTROPIC_ERROR_SPECULATIVE_INCOMPATIBLE_CONFIG;
  entropic_mcp_server_t s = entropic_create_server();
  p.user_data = (void*)s;
  entropic_free(entropic_mcp_server_execute(s, entropic_abi_entry_points[0], "{}"));
  return (int)e + ENTROPIC_MCP_PLUGIN_API_VERSION + (p.user_data != NULL) + (entropic_abi_error_name(99)[0] == 'E') + entropic_abi_errors[ENTROPIC_ABI_ERROR_COUNT - 1].value;
}
int (*entropic_test_use)(void) = uses;`;
    expect(
      compile(compiler, flags, ext, ['entropic/interfaces/i_mcp_server.h', 'entropic_abi_tables.h'], body),
    ).toBe('');
  });

  it('the context header: a plugin reads the context only where its size covers a member', () => {
    const body = `
static entropic_error_t report(const entropic_call_context_t* c, double done) {
  if (ENTROPIC_CALL_CONTEXT_HAS(c, cancelled) && c->cancelled != NULL && c->cancelled(c->host)) return ENTROPIC_ERROR_CANCELLED;
  if (!ENTROPIC_CALL_CONTEXT_HAS(c, progress) || c->progress == NULL) return ENTROPIC_OK;
  return c->progress(done, -1.0, ENTROPIC_CALL_CONTEXT_HAS(c, subject) ? c->subject : NULL, c->host);
}
entropic_error_t (*entropic_test_report)(const entropic_call_context_t*, double) = report;
entropic_log_level_t entropic_test_level = ENTROPIC_LOG_EMERGENCY;
char* (*entropic_test_execute)(entropic_mcp_server_t, const char*, const char*, const entropic_call_context_t*) =
    entropic_mcp_server_execute_with_context;
int entropic_test_optional = ENTROPIC_ABI_OPTIONAL_ENTRY_POINT_COUNT;`;
    expect(
      compile(compiler, flags, ext, ['entropic/interfaces/i_mcp_context.h', 'entropic_abi_tables.h'], body),
    ).toBe('');
  });

  it('catches a warning (the flags are live): an unused variable fails', () => {
    const out = compile(compiler, flags, ext, ['entropic/types/error.h'], 'void f(void) { int unused; }');
    expect(out).toMatch(/unused/);
  });
});

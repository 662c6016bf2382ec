// Plugin sources for the verify-plugin tests, and a compiler wrapper.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const BODIES = `
int entropic_plugin_api_version(void) { return ENTROPIC_MCP_PLUGIN_API_VERSION; }
entropic_mcp_server_t entropic_create_server(void) { return (entropic_mcp_server_t)malloc(1); }
const char* entropic_mcp_server_name(entropic_mcp_server_t s) { (void)s; return "probe"; }
char* entropic_mcp_server_list_tools(entropic_mcp_server_t s) { (void)s; return NULL; }
char* entropic_mcp_server_execute(entropic_mcp_server_t s, const char* tool, const char* args) {
  (void)s; (void)tool; (void)args; return NULL;
}
entropic_error_t entropic_mcp_server_configure(entropic_mcp_server_t s, const char* c) {
  (void)s; (void)c; return ENTROPIC_OK;
}
entropic_error_t entropic_mcp_server_set_working_dir(entropic_mcp_server_t s, const char* p) {
  (void)s; (void)p; return ENTROPIC_OK;
}
void entropic_mcp_server_destroy(entropic_mcp_server_t s) { free(s); }
`;

/** Bare definitions against our header (the control case: built with -fvisibility=hidden). */
export const GOOD_C = `#include <stdlib.h>
#include <entropic/interfaces/i_mcp_server.h>
${BODIES}
void entropic_free(void* p) { free(p); }
`;

export const GOOD_CPP = `#include <cstdlib>
#include <entropic/interfaces/i_mcp_server.h>
struct entropic_mcp_server { int calls; };
extern "C" {
int entropic_plugin_api_version() { return ENTROPIC_MCP_PLUGIN_API_VERSION; }
entropic_mcp_server_t entropic_create_server() { return new entropic_mcp_server{0}; }
const char* entropic_mcp_server_name(entropic_mcp_server_t) { return "probe"; }
char* entropic_mcp_server_list_tools(entropic_mcp_server_t) { return nullptr; }
char* entropic_mcp_server_execute(entropic_mcp_server_t, const char*, const char*) { return nullptr; }
entropic_error_t entropic_mcp_server_configure(entropic_mcp_server_t, const char*) { return ENTROPIC_OK; }
entropic_error_t entropic_mcp_server_set_working_dir(entropic_mcp_server_t, const char*) { return ENTROPIC_OK; }
void entropic_mcp_server_destroy(entropic_mcp_server_t s) { delete s; }
void entropic_free(void* p) { std::free(p); }
}
`;

/**
 * Lacks configure and set_working_dir; entropic_free is an object, not a function (so it cannot
 * include our interface header). Built with default visibility.
 */
export const MISSING_C = `#include <stdlib.h>
typedef struct entropic_mcp_server* entropic_mcp_server_t;
int entropic_plugin_api_version(void) { return 1; }
entropic_mcp_server_t entropic_create_server(void) { return NULL; }
const char* entropic_mcp_server_name(entropic_mcp_server_t s) { (void)s; return "probe"; }
char* entropic_mcp_server_list_tools(entropic_mcp_server_t s) { (void)s; return NULL; }
char* entropic_mcp_server_execute(entropic_mcp_server_t s, const char* t, const char* a) { (void)s; (void)t; (void)a; return NULL; }
void entropic_mcp_server_destroy(entropic_mcp_server_t s) { (void)s; }
int entropic_free = 1;
`;

/**
 * Written from its own declarations, not our interface header: execute takes an int tool id and an
 * extra length. Everything else matches the contract. Built with default visibility (no export macro).
 */
export const DRIFT_C = `#include <stdlib.h>
#include <entropic/types/error.h>
typedef struct entropic_mcp_server* entropic_mcp_server_t;
#define ENTROPIC_MCP_PLUGIN_API_VERSION 1
${BODIES.replace('const char* tool, const char* args) {\n  (void)s; (void)tool; (void)args;', 'int tool, const char* args, long length) {\n  (void)s; (void)tool; (void)args; (void)length;')}
void entropic_free(void* p) { free(p); }
`;

/** GOOD_C with the plugin context's optional entry point, defined against the context header. */
export const CONTEXT_C = `#include <entropic/interfaces/i_mcp_context.h>
${GOOD_C}
char* entropic_mcp_server_execute_with_context(entropic_mcp_server_t s, const char* tool, const char* args,
                                               const entropic_call_context_t* context) {
  (void)context;
  return entropic_mcp_server_execute(s, tool, args);
}
`;

/** GOOD_C with an optional entry point of its own making: the context is a plain void*, one parameter short. */
export const CONTEXT_DRIFT_C = `${GOOD_C}
char* entropic_mcp_server_execute_with_context(entropic_mcp_server_t s, const char* tool, void* context) {
  (void)context;
  return entropic_mcp_server_execute(s, tool, "{}");
}
`;

/** Compiles `source` into `dir/name.so` against the include folder; throws with gcc's output on failure. */
export function buildPlugin(
  dir: string,
  name: string,
  source: string,
  opts: { cxx?: boolean; debug?: boolean; hidden?: boolean; include: string },
): string {
  const src = join(dir, `${name}.${opts.cxx ? 'cpp' : 'c'}`);
  const lib = join(dir, `${name}.so`);
  writeFileSync(src, source);
  const args = ['-shared', '-fPIC', `-I${opts.include}`, src, '-o', lib];
  if (opts.hidden !== false) args.unshift('-fvisibility=hidden');
  if (opts.debug) args.unshift('-g');
  const r = spawnSync(opts.cxx ? 'g++' : 'gcc', args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`building ${name} failed:\n${r.stderr}`);
  return lib;
}

/**
 * A plugin written for the engine: it calls the engine's entropic_error_name, declared here as the
 * engine's own error.h declares it (our headers do not declare it).
 */
export const ENGINE_CALL_C = `${GOOD_C}
const char* entropic_error_name(entropic_error_t code);
const char* plugin_code_name(entropic_error_t code) { return entropic_error_name(code); }
`;

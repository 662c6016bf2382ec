/* Loading one plugin library and checking it against the contract (CONTRACT.md, "How the engine's loader"). */
#ifndef ENTROPIC_HOST_PLUGIN_H
#define ENTROPIC_HOST_PLUGIN_H

#include <entropic/interfaces/i_mcp_context.h>

typedef struct {
  void* library;
  entropic_mcp_server_t server;
  const char* name;
  int api_version;
  __typeof__(&entropic_plugin_api_version) api_version_fn;
  __typeof__(&entropic_create_server) create_server;
  __typeof__(&entropic_mcp_server_name) server_name;
  __typeof__(&entropic_mcp_server_list_tools) list_tools;
  __typeof__(&entropic_mcp_server_execute) execute;
  __typeof__(&entropic_mcp_server_configure) configure;
  __typeof__(&entropic_mcp_server_set_working_dir) set_working_dir;
  __typeof__(&entropic_mcp_server_destroy) destroy;
  __typeof__(&entropic_free) free_fn;
  /* The optional entry point of the plugin context, or NULL when the plugin does not define it. */
  __typeof__(&entropic_mcp_server_execute_with_context) execute_with_context;
} plugin_t;

typedef struct {
  entropic_error_t code;
  char message[4096];
} load_error_t;

/* 0 on success; otherwise fills err and leaves nothing loaded. */
int plugin_load(plugin_t* p, const char* path, load_error_t* err);
/* Destroys the instance, then unloads the library. */
void plugin_unload(plugin_t* p);
/* The contract name of an entropic_error_t value, from the generated tables. */
const char* plugin_error_name(int value);

#endif

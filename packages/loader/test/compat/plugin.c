/* A plugin as an author would have written it against the first API-1 headers (see README.md). */
#include <entropic/interfaces/i_mcp_server.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entropic_mcp_server {
  char dir[512];
};

int entropic_plugin_api_version(void) { return ENTROPIC_MCP_PLUGIN_API_VERSION; }
entropic_mcp_server_t entropic_create_server(void) { return calloc(1, sizeof(struct entropic_mcp_server)); }
const char* entropic_mcp_server_name(entropic_mcp_server_t server) {
  (void)server;
  return "compat-api1-first";
}
char* entropic_mcp_server_list_tools(entropic_mcp_server_t server) {
  (void)server;
  return strdup("[{\"name\":\"where\",\"description\":\"The working directory.\",\"inputSchema\":{\"type\":\"object\"}}]");
}
char* entropic_mcp_server_execute(entropic_mcp_server_t server, const char* tool, const char* args) {
  (void)args;
  char* out = malloc(strlen(server->dir) + strlen(tool) + 64);
  sprintf(out, "{\"result\":\"%s:%s\",\"directives\":[{\"type\":\"complete\"}]}", tool, server->dir);
  return out;
}
entropic_error_t entropic_mcp_server_configure(entropic_mcp_server_t server, const char* config_json) {
  (void)server;
  return strcmp(config_json, "{}") == 0 ? ENTROPIC_OK : ENTROPIC_ERROR_INVALID_CONFIG;
}
entropic_error_t entropic_mcp_server_set_working_dir(entropic_mcp_server_t server, const char* path) {
  snprintf(server->dir, sizeof server->dir, "%s", path);
  return ENTROPIC_OK;
}
void entropic_mcp_server_destroy(entropic_mcp_server_t server) { free(server); }
void entropic_free(void* ptr) { free(ptr); }

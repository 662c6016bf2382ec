/*
 * {{name}}: an MCP plugin for entropic-mcp, written against the entropic plugin ABI (API version 1).
 *
 * It offers one tool, "hello", served to MCP clients as "{{name}}.hello".
 * Build:  make
 * Serve:  entropic-mcp serve --plugin "$PWD/build/lib{{name}}.so"
 * Try:    entropic-mcp call "$PWD/build/lib{{name}}.so" hello '{"name":"world"}'
 */
#include <entropic/interfaces/i_mcp_server.h>

#include "answers.h"

/* One instance per entropic_create_server call; the host never touches its insides. */
struct entropic_mcp_server {
  char *working_dir;
};

int entropic_plugin_api_version(void) { return ENTROPIC_MCP_PLUGIN_API_VERSION; }

entropic_mcp_server_t entropic_create_server(void) {
  return calloc(1, sizeof(struct entropic_mcp_server));
}

const char *entropic_mcp_server_name(entropic_mcp_server_t server) {
  (void)server;
  return "{{name}}";
}

char *entropic_mcp_server_list_tools(entropic_mcp_server_t server) {
  (void)server;
  return copy_text(
      "[{\"name\":\"hello\",\"description\":\"Greets someone by name.\","
      "\"inputSchema\":{\"type\":\"object\","
      "\"properties\":{\"name\":{\"type\":\"string\",\"description\":\"Who to greet\"}},"
      "\"required\":[\"name\"],\"additionalProperties\":false}}]");
}

char *entropic_mcp_server_execute(entropic_mcp_server_t server, const char *tool_name,
                                  const char *args_json) {
  (void)server;
  if (tool_name == NULL || strcmp(tool_name, "hello") != 0) {
    return copy_text("{\"result\":\"unknown tool\",\"directives\":[]}");
  }
  size_t len = 0;
  const char *name = name_value(args_json, &len);
  if (name == NULL) return copy_text("{\"result\":\"missing name\",\"directives\":[]}");
  return answer("Hello, ", name, len, "!");
}

entropic_error_t entropic_mcp_server_configure(entropic_mcp_server_t server, const char *config_json) {
  (void)config_json;
  return server != NULL ? ENTROPIC_OK : ENTROPIC_ERROR_INVALID_HANDLE;
}

entropic_error_t entropic_mcp_server_set_working_dir(entropic_mcp_server_t server, const char *path) {
  if (server == NULL || path == NULL) return ENTROPIC_ERROR_INVALID_ARGUMENT;
  char *copy = copy_text(path);
  if (copy == NULL) return ENTROPIC_ERROR_OUT_OF_MEMORY;
  free(server->working_dir);
  server->working_dir = copy;
  return ENTROPIC_OK;
}

void entropic_mcp_server_destroy(entropic_mcp_server_t server) {
  if (server == NULL) return;
  free(server->working_dir);
  free(server);
}

void entropic_free(void *ptr) { free(ptr); }

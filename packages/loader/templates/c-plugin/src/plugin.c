/*
 * {{name}}: an MCP plugin for entropic-mcp, written against the entropic plugin ABI (API version 1).
 *
 * It offers one tool, "hello", served to MCP clients as "{{name}}.hello".
 * Build:  make
 * Serve:  entropic-mcp serve --plugin "$PWD/build/lib{{name}}.so"
 * Try:    entropic-mcp call "$PWD/build/lib{{name}}.so" hello '{"name":"world"}'
 */
#include <entropic/interfaces/i_mcp_server.h>

#include <stdlib.h>
#include <string.h>

/* One instance per entropic_create_server call; the host never touches its insides. */
struct entropic_mcp_server {
  char *working_dir;
};

static char *copy_text(const char *text) {
  size_t size = strlen(text) + 1;
  char *copy = malloc(size);
  if (copy != NULL) memcpy(copy, text, size);
  return copy;
}

/* Builds {"result":"<prefix><raw><suffix>","directives":[]}; raw is already JSON-escaped text. */
static char *answer(const char *prefix, const char *raw, size_t raw_len, const char *suffix) {
  static const char head[] = "{\"result\":\"";
  static const char tail[] = "\",\"directives\":[]}";
  size_t size = strlen(head) + strlen(prefix) + raw_len + strlen(suffix) + strlen(tail) + 1;
  char *out = malloc(size);
  if (out == NULL) return NULL;
  char *p = out;
  memcpy(p, head, strlen(head)), p += strlen(head);
  memcpy(p, prefix, strlen(prefix)), p += strlen(prefix);
  memcpy(p, raw, raw_len), p += raw_len;
  memcpy(p, suffix, strlen(suffix)), p += strlen(suffix);
  memcpy(p, tail, sizeof tail);
  return out;
}

/*
 * Finds the string value of "name" in the arguments. The server has already checked them against the
 * inputSchema below (an object with exactly one string property "name"), so the first "name" is the key.
 * The value is returned still JSON-escaped, which is exactly what the answer needs.
 */
static const char *name_value(const char *args_json, size_t *len) {
  const char *p = args_json != NULL ? strstr(args_json, "\"name\"") : NULL;
  if (p == NULL) return NULL;
  p = strchr(p + 6, '"');
  if (p == NULL) return NULL;
  const char *start = ++p;
  while (*p != '\0' && *p != '"') p += (*p == '\\' && p[1] != '\0') ? 2 : 1;
  *len = (size_t)(p - start);
  return start;
}

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

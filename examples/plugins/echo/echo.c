/*
 * echo: the smallest useful plugin.
 *   echo {text}                      answers the text
 *   stop {reason}                    answers the reason and asks the engine to stop processing
 *   delegate {target, task, turns}   hands the task to another identity (a `delegate` directive whose
 *                                    parameters travel in the result as JSON)
 */
#include <entropic/interfaces/i_mcp_server.h>

#include "../common/mini_json.h"

struct entropic_mcp_server {
  int calls;
};

static const char TOOLS[] =
    "[{\"name\":\"echo\",\"description\":\"Answers the text it is given.\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"]}},"
    "{\"name\":\"stop\",\"description\":\"Answers the reason and asks the engine to stop processing.\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"reason\":{\"type\":\"string\"}}}},"
    "{\"name\":\"delegate\",\"description\":\"Hands a task to another identity.\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"target\":{\"type\":\"string\"},"
    "\"task\":{\"type\":\"string\"},\"max_turns\":{\"type\":\"integer\"}},\"required\":[\"target\",\"task\"]}}]";

int entropic_plugin_api_version(void) { return ENTROPIC_MCP_PLUGIN_API_VERSION; }

entropic_mcp_server_t entropic_create_server(void) { return calloc(1, sizeof(struct entropic_mcp_server)); }

const char* entropic_mcp_server_name(entropic_mcp_server_t server) {
  (void)server;
  return "echo";
}

char* entropic_mcp_server_list_tools(entropic_mcp_server_t server) {
  (void)server;
  return strdup(TOOLS);
}

static char* delegate(const char* args) {
  char* target = mj_string(args, "target");
  char* task = mj_string(args, "task");
  if (target == NULL || task == NULL) {
    free(target);
    free(task);
    return mj_answer("delegate needs \"target\" and \"task\"", NULL);
  }
  char* t = mj_escape(target);
  char* k = mj_escape(task);
  size_t size = strlen(t) + strlen(k) + 96;
  char* params = malloc(size);
  snprintf(params, size, "{\"action\":\"delegate\",\"target\":\"%s\",\"task\":\"%s\",\"max_turns\":%ld}", t, k,
           mj_int(args, "max_turns", 10));
  char* answer = mj_answer(params, "delegate");
  free(params);
  free(t);
  free(k);
  free(target);
  free(task);
  return answer;
}

char* entropic_mcp_server_execute(entropic_mcp_server_t server, const char* tool, const char* args) {
  server->calls++;
  if (strcmp(tool, "delegate") == 0) return delegate(args);
  int stop = strcmp(tool, "stop") == 0;
  if (!stop && strcmp(tool, "echo") != 0) return mj_answer("unknown tool", NULL);
  char* text = mj_string(args, stop ? "reason" : "text");
  char* answer = mj_answer(text ? text : "", stop ? "stop_processing" : NULL);
  free(text);
  return answer;
}

entropic_error_t entropic_mcp_server_configure(entropic_mcp_server_t server, const char* config_json) {
  (void)server;
  (void)config_json;
  return ENTROPIC_OK;
}

entropic_error_t entropic_mcp_server_set_working_dir(entropic_mcp_server_t server, const char* path) {
  (void)server;
  (void)path;
  return ENTROPIC_OK;
}

void entropic_mcp_server_destroy(entropic_mcp_server_t server) { free(server); }

void entropic_free(void* ptr) { free(ptr); }

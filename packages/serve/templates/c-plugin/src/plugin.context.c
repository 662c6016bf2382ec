/*
 * {{name}}: an MCP plugin for entropic-mcp, written against the entropic plugin ABI (API version 1) with the
 * plugin context (<entropic/interfaces/i_mcp_context.h>): while a tool runs it can report progress, log to the
 * client, see that the call was cancelled and read who is calling.
 *
 * Tools, served to MCP clients as "{{name}}.<tool>":
 *   hello {name}         greets someone by name (and logs that it did)
 *   countdown {from}     counts down from `from` to 0, one step every 100 ms, reporting progress; stops early
 *                        when the call is cancelled
 * Build:  make
 * Serve:  entropic-mcp serve --plugin "$PWD/build/lib{{name}}.so"
 * Try:    entropic-mcp call "$PWD/build/lib{{name}}.so" hello '{"name":"world"}'
 */
#define _POSIX_C_SOURCE 200809L
#include <entropic/interfaces/i_mcp_context.h>

#include <stdio.h>
#include <time.h>

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
      "\"required\":[\"name\"],\"additionalProperties\":false}},"
      "{\"name\":\"countdown\",\"description\":\"Counts down to 0, one step every 100 ms, with progress.\","
      "\"inputSchema\":{\"type\":\"object\","
      "\"properties\":{\"from\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":600}},"
      "\"required\":[\"from\"],\"additionalProperties\":false}}]");
}

/*
 * The context is the host's; read a member only when ENTROPIC_CALL_CONTEXT_HAS says the host filled it in (a
 * context from a newer or older host may be longer or shorter than this header's), and never keep it after the
 * call. A NULL context (a loader without the plugin context) makes every helper below do nothing.
 */
static int cancelled(const entropic_call_context_t *ctx) {
  return ENTROPIC_CALL_CONTEXT_HAS(ctx, cancelled) && ctx->cancelled != NULL && ctx->cancelled(ctx->host);
}

static void progress(const entropic_call_context_t *ctx, double done, double total, const char *message) {
  if (ENTROPIC_CALL_CONTEXT_HAS(ctx, progress) && ctx->progress != NULL) ctx->progress(done, total, message, ctx->host);
}

static void log_info(const entropic_call_context_t *ctx, const char *data_json) {
  if (ENTROPIC_CALL_CONTEXT_HAS(ctx, log) && ctx->log != NULL) ctx->log(ENTROPIC_LOG_INFO, NULL, data_json, ctx->host);
}

static char *hello(const char *args_json, const entropic_call_context_t *ctx) {
  size_t len = 0;
  const char *name = name_value(args_json, &len);
  if (name == NULL) return copy_text("{\"result\":\"missing name\",\"directives\":[]}");
  log_info(ctx, "{\"greeted\":true}");
  return answer("Hello, ", name, len, "!");
}

static char *countdown(const char *args_json, const entropic_call_context_t *ctx) {
  const char *p = args_json != NULL ? strstr(args_json, "\"from\"") : NULL;
  long from = p != NULL ? strtol(strchr(p, ':') + 1, NULL, 10) : 0;
  long left = from;
  while (left > 0 && !cancelled(ctx)) {
    struct timespec step = {0, 100L * 1000L * 1000L};
    nanosleep(&step, NULL);
    left--;
    char message[48];
    snprintf(message, sizeof message, "%ld to go", left);
    progress(ctx, (double)(from - left), (double)from, message);
  }
  char text[32];
  snprintf(text, sizeof text, "%ld", left);
  return answer(left == 0 ? "Lift-off at " : "Stopped at ", text, strlen(text), "");
}

/* Every tool call comes here when the loader has the plugin context, with the context of the call. */
char *entropic_mcp_server_execute_with_context(entropic_mcp_server_t server, const char *tool_name,
                                               const char *args_json, const entropic_call_context_t *context) {
  (void)server;
  if (tool_name != NULL && strcmp(tool_name, "hello") == 0) return hello(args_json, context);
  if (tool_name != NULL && strcmp(tool_name, "countdown") == 0) return countdown(args_json, context);
  return copy_text("{\"result\":\"unknown tool\",\"directives\":[]}");
}

/* A loader without the plugin context calls this one: the same tools, with no context. */
char *entropic_mcp_server_execute(entropic_mcp_server_t server, const char *tool_name,
                                  const char *args_json) {
  return entropic_mcp_server_execute_with_context(server, tool_name, args_json, NULL);
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

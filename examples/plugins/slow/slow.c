/*
 * slow: a long call that talks while it runs, through the plugin context (<entropic/interfaces/i_mcp_context.h>).
 *   count {to, delay_ms}   counts from 1 to `to`; at each step it reports progress, then waits delay_ms; stops
 *                          early when the call is cancelled; answers the count reached (and, as a structured
 *                          result, {"count": N, "cancelled": false|true})
 *
 * It also defines the plain entropic_mcp_server_execute, which runs the same code without a context: a loader
 * that predates the plugin context loads this plugin and counts in silence.
 */
#include <entropic/interfaces/i_mcp_context.h>
#include <stdio.h>
#include <time.h>

#include "../common/mini_json.h"

struct entropic_mcp_server {
  int unused;
};

static const char TOOLS[] =
    "[{\"name\":\"count\",\"description\":\"Counts to `to`, waiting delay_ms at each step, with progress.\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"to\":{\"type\":\"integer\",\"minimum\":0,"
    "\"maximum\":100000},\"delay_ms\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":60000}},\"required\":[\"to\"]},"
    "\"outputSchema\":{\"type\":\"object\",\"properties\":{\"count\":{\"type\":\"integer\"},"
    "\"cancelled\":{\"type\":\"boolean\"}},\"required\":[\"count\",\"cancelled\"]}}]";

/* The context's callbacks, each used only when the host filled it in: a NULL context does nothing. */
static int cancelled(const entropic_call_context_t* c) {
  return ENTROPIC_CALL_CONTEXT_HAS(c, cancelled) && c->cancelled != NULL && c->cancelled(c->host);
}

static void progress(const entropic_call_context_t* c, long done, long total) {
  if (!ENTROPIC_CALL_CONTEXT_HAS(c, progress) || c->progress == NULL) return;
  char message[64];
  snprintf(message, sizeof message, "counted %ld of %ld", done, total);
  c->progress((double)done, (double)total, message, c->host);
}

static void log_info(const entropic_call_context_t* c, const char* json) {
  if (ENTROPIC_CALL_CONTEXT_HAS(c, log) && c->log != NULL) c->log(ENTROPIC_LOG_INFO, NULL, json, c->host);
}

static void set_structured(const entropic_call_context_t* c, const char* json) {
  if (ENTROPIC_CALL_CONTEXT_HAS(c, set_structured) && c->set_structured != NULL) c->set_structured(json, c->host);
}

/* Sleeps `ms`, looking at the cancellation flag every 10 ms at most; 1 when the call was cancelled meanwhile. */
static int wait_ms(const entropic_call_context_t* c, long ms) {
  while (ms > 0) {
    long slice = ms < 10 ? ms : 10;
    struct timespec pause = {slice / 1000, (slice % 1000) * 1000000L};
    nanosleep(&pause, NULL);
    ms -= slice;
    if (cancelled(c)) return 1;
  }
  return cancelled(c);
}

static char* count(const char* args, const entropic_call_context_t* c) {
  long to = mj_int(args, "to", 0);
  long delay = mj_int(args, "delay_ms", 0);
  char note[96];
  snprintf(note, sizeof note, "{\"counting_to\":%ld,\"delay_ms\":%ld}", to, delay);
  log_info(c, note);
  long done = 0;
  int stopped = cancelled(c);
  /* Each step counts one, reports it, then waits: the report of the last step leaves delay_ms before the answer. */
  while (!stopped && done < to) {
    done++;
    progress(c, done, to);
    stopped = wait_ms(c, delay);
  }
  char text[96];
  snprintf(text, sizeof text, "{\"count\":%ld,\"cancelled\":%s}", done, stopped ? "true" : "false");
  set_structured(c, text);
  if (stopped) {
    snprintf(note, sizeof note, "{\"cancelled_at\":%ld}", done);
    log_info(c, note);
  }
  snprintf(text, sizeof text, "%ld", done);
  return mj_answer(text, NULL);
}

int entropic_plugin_api_version(void) { return ENTROPIC_MCP_PLUGIN_API_VERSION; }

entropic_mcp_server_t entropic_create_server(void) { return calloc(1, sizeof(struct entropic_mcp_server)); }

const char* entropic_mcp_server_name(entropic_mcp_server_t server) {
  (void)server;
  return "slow";
}

char* entropic_mcp_server_list_tools(entropic_mcp_server_t server) {
  (void)server;
  return strdup(TOOLS);
}

char* entropic_mcp_server_execute_with_context(entropic_mcp_server_t server, const char* tool, const char* args,
                                               const entropic_call_context_t* context) {
  (void)server;
  if (strcmp(tool, "count") == 0) return count(args, context);
  return mj_answer("unknown tool", NULL);
}

char* entropic_mcp_server_execute(entropic_mcp_server_t server, const char* tool, const char* args) {
  return entropic_mcp_server_execute_with_context(server, tool, args, NULL);
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

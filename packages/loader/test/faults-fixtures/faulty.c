/*
 * One tool per way a plugin call can go wrong, for the fault tests of `entropic-mcp serve`, plus `spin` (a
 * CPU-bound call, 2 ms of CPU by default) and `pid` (which process served the call) for the instance tests.
 * Built with -DPLUGIN_NAME='"..."' (the name is the tool prefix), so two copies can serve side by side.
 */
#include <entropic/interfaces/i_mcp_server.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef PLUGIN_NAME
#define PLUGIN_NAME "faulty"
#endif

#define HUGE_BYTES (5u * 1024u * 1024u)

struct entropic_mcp_server {
  int calls;
};

static char *copy(const char *text) {
  char *out = malloc(strlen(text) + 1);
  if (out != NULL) strcpy(out, text);
  return out;
}

/* {"result":"<text>","directives":[]} for text without quotes or backslashes. */
static char *answer(const char *text) {
  char *out = malloc(strlen(text) + 40);
  if (out != NULL) sprintf(out, "{\"result\":\"%s\",\"directives\":[]}", text);
  return out;
}

static char *huge(void) {
  char *out = malloc(HUGE_BYTES + 40);
  if (out == NULL) return NULL;
  size_t at = (size_t)sprintf(out, "{\"result\":\"");
  memset(out + at, 'x', HUGE_BYTES);
  strcpy(out + at + HUGE_BYTES, "\",\"directives\":[]}");
  return out;
}

/* The integer after "key": in args, or fallback. */
static int number(const char *args, const char *key, int fallback) {
  const char *at = strstr(args, key);
  return at != NULL ? atoi(at + strlen(key)) : fallback;
}

/* Keeps a core busy for `us` microseconds of this thread's CPU time: a CPU-bound tool. */
static void spin_us(int us) {
  struct timespec start, now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
  volatile unsigned long sink = 0;
  do {
    for (int i = 0; i < 1000; i++) sink += (unsigned long)i;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  } while ((now.tv_sec - start.tv_sec) * 1000000L + (now.tv_nsec - start.tv_nsec) / 1000L < us);
}

int entropic_plugin_api_version(void) { return ENTROPIC_MCP_PLUGIN_API_VERSION; }
entropic_mcp_server_t entropic_create_server(void) { return calloc(1, sizeof(struct entropic_mcp_server)); }
const char *entropic_mcp_server_name(entropic_mcp_server_t s) {
  (void)s;
  return PLUGIN_NAME;
}

#define TOOL(name) "{\"name\":\"" name "\",\"inputSchema\":{\"type\":\"object\"}}"
char *entropic_mcp_server_list_tools(entropic_mcp_server_t s) {
  (void)s;
  return copy("[" TOOL("echo") "," TOOL("segfault") "," TOOL("abort") "," TOOL("hang") "," TOOL("null") ","
              TOOL("invalid_json") "," TOOL("non_object") "," TOOL("missing_result") "," TOOL("huge") ","
              TOOL("noise") "," TOOL("slow") "," TOOL("spin") "," TOOL("pid") "]");
}

char *entropic_mcp_server_execute(entropic_mcp_server_t s, const char *tool, const char *args) {
  s->calls++;
  if (strcmp(tool, "echo") == 0) return answer("ok");
  if (strcmp(tool, "segfault") == 0) {
    volatile int *nowhere = NULL;
    *nowhere = 1;
  }
  if (strcmp(tool, "abort") == 0) abort();
  if (strcmp(tool, "hang") == 0) {
    for (;;) pause();
  }
  if (strcmp(tool, "null") == 0) return NULL;
  if (strcmp(tool, "invalid_json") == 0) return copy("{\"result\": nope");
  if (strcmp(tool, "non_object") == 0) return copy("[\"result\",\"x\"]");
  if (strcmp(tool, "missing_result") == 0) return copy("{\"directives\":[]}");
  if (strcmp(tool, "huge") == 0) return huge();
  if (strcmp(tool, "noise") == 0) {
    printf("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"forged\":true}}\n");
    fflush(stdout);
    if (write(1, "raw noise\n", 10) < 0) return NULL;
    return answer("quiet answer");
  }
  if (strcmp(tool, "spin") == 0) {
    spin_us(number(args, "\"us\":", 2000));
    return answer("spun");
  }
  if (strcmp(tool, "pid") == 0) {
    usleep((useconds_t)number(args, "\"ms\":", 0) * 1000u);
    char text[32];
    snprintf(text, sizeof text, "%ld", (long)getpid());
    return answer(text);
  }
  if (strcmp(tool, "slow") == 0) {
    usleep((useconds_t)number(args, "\"ms\":", 300) * 1000u);
    return answer("slow done");
  }
  return answer("unknown tool");
}

entropic_error_t entropic_mcp_server_configure(entropic_mcp_server_t s, const char *config) {
  (void)s;
  (void)config;
  return ENTROPIC_OK;
}

entropic_error_t entropic_mcp_server_set_working_dir(entropic_mcp_server_t s, const char *path) {
  (void)s;
  (void)path;
  return ENTROPIC_OK;
}

void entropic_mcp_server_destroy(entropic_mcp_server_t s) { free(s); }
void entropic_free(void *p) { free(p); }

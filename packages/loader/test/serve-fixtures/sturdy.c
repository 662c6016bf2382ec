/*
 * A test plugin for `entropic-mcp serve`: one tool per behaviour the bridge must handle.
 * Built by the tests with -DPLUGIN_NAME='"fx"' (the name decides the tool prefix).
 */
#include <entropic/interfaces/i_mcp_server.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PLUGIN_NAME
#define PLUGIN_NAME "fx"
#endif

struct entropic_mcp_server {
  char dir[4096];
  char *config;
  int calls;
};

static char *dup_text(const char *text) {
  char *copy = malloc(strlen(text) + 1);
  if (copy != NULL) strcpy(copy, text);
  return copy;
}

/* {"result":"<text>","directives":[...]} with text JSON-escaped. */
static char *answer(const char *text, const char *directives) {
  size_t n = strlen(text);
  char *out = malloc(n * 6 + strlen(directives) + 64);
  if (out == NULL) return NULL;
  char *p = out + sprintf(out, "{\"result\":\"");
  for (const unsigned char *s = (const unsigned char *)text; *s != '\0'; s++) {
    if (*s == '"' || *s == '\\') p += sprintf(p, "\\%c", *s);
    else if (*s < 0x20) p += sprintf(p, "\\u%04x", *s);
    else *p++ = (char)*s;
  }
  sprintf(p, "\",\"directives\":%s}", directives);
  return out;
}

int entropic_plugin_api_version(void) { return ENTROPIC_MCP_PLUGIN_API_VERSION; }
entropic_mcp_server_t entropic_create_server(void) { return calloc(1, sizeof(struct entropic_mcp_server)); }
const char *entropic_mcp_server_name(entropic_mcp_server_t s) {
  (void)s;
  return PLUGIN_NAME;
}

#define OBJ(props, req) "{\"type\":\"object\",\"properties\":{" props "},\"required\":[" req "]}"
char *entropic_mcp_server_list_tools(entropic_mcp_server_t s) {
  (void)s;
  return dup_text(
      "[{\"name\":\"echo\",\"description\":\"Echoes text.\",\"inputSchema\":" OBJ("\"text\":{\"type\":\"string\"}", "\"text\"") "},"
      "{\"name\":\"calls\",\"description\":\"How many calls this instance has run.\",\"inputSchema\":" OBJ("", "") "},"
      "{\"name\":\"cwd\",\"description\":\"The working directory it was given.\",\"inputSchema\":" OBJ("", "") "},"
      "{\"name\":\"config\",\"description\":\"The configure JSON it was given.\",\"inputSchema\":" OBJ("", "") "},"
      "{\"name\":\"stop\",\"description\":\"Answers with directives.\",\"inputSchema\":" OBJ("", "") "},"
      "{\"name\":\"crash\",\"description\":\"Dies of SIGSEGV.\",\"inputSchema\":" OBJ("", "") "},"
      "{\"name\":\"hang\",\"description\":\"Writes its pid to hang.pid in the working dir, then never returns.\",\"inputSchema\":" OBJ("", "") "},"
      "{\"name\":\"garbage\",\"description\":\"Answers with something that is not an envelope.\",\"inputSchema\":" OBJ("", "") "}"
#ifdef BAD_SCHEMA
      ",{\"name\":\"broken\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"nonsense\"}}}}"
#endif
      "]");
}

char *entropic_mcp_server_execute(entropic_mcp_server_t s, const char *tool, const char *args) {
  s->calls++;
  if (strcmp(tool, "echo") == 0) {
    const char *p = strstr(args, "\"text\"");
    p = p != NULL ? strchr(p + 6, '"') : NULL;
    if (p == NULL) return answer("no text", "[]");
    const char *end = strchr(p + 1, '"');
    char buf[1024];
    size_t n = end != NULL && (size_t)(end - p - 1) < sizeof buf ? (size_t)(end - p - 1) : 0;
    memcpy(buf, p + 1, n);
    buf[n] = '\0';
    return answer(buf, "[]");
  }
  if (strcmp(tool, "calls") == 0) {
    char buf[32];
    sprintf(buf, "%d", s->calls - 1);
    return answer(buf, "[]");
  }
  if (strcmp(tool, "cwd") == 0) return answer(s->dir, "[]");
  if (strcmp(tool, "config") == 0) return answer(s->config != NULL ? s->config : "", "[]");
  if (strcmp(tool, "stop") == 0) {
    return answer("{\"action\":\"delegate\",\"target\":\"eng\",\"task\":\"review\",\"max_turns\":3}",
                  "[{\"type\":\"delegate\"},{\"type\":\"stop_processing\"}]");
  }
  if (strcmp(tool, "crash") == 0) raise(SIGSEGV);
  if (strcmp(tool, "hang") == 0) {
    char path[4200];
    snprintf(path, sizeof path, "%s/hang.pid", s->dir);
    FILE *f = fopen(path, "w");
    if (f != NULL) {
      fprintf(f, "%d", (int)getpid());
      fclose(f);
    }
    for (;;) pause();
  }
  if (strcmp(tool, "garbage") == 0) return dup_text("[1,2,3]");
  return answer("unknown tool", "[]");
}

entropic_error_t entropic_mcp_server_configure(entropic_mcp_server_t s, const char *config) {
  free(s->config);
  s->config = dup_text(config);
  return ENTROPIC_OK;
}

entropic_error_t entropic_mcp_server_set_working_dir(entropic_mcp_server_t s, const char *path) {
  snprintf(s->dir, sizeof s->dir, "%s", path);
  return ENTROPIC_OK;
}

void entropic_mcp_server_destroy(entropic_mcp_server_t s) {
  if (s == NULL) return;
  free(s->config);
  free(s);
}

void entropic_free(void *p) { free(p); }

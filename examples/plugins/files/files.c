/*
 * files: reads and lists files inside its working directory, and nothing outside it.
 *   list {path?}   names in a directory ("/" after subdirectories), one a line
 *   read {path}    the text of a file (at most 1 MiB)
 * A path must be relative; ".." components, absolute paths and symlinks that lead outside the working
 * directory are refused. Until set_working_dir is called, every tool refuses.
 */
#include <dirent.h>
#include <entropic/interfaces/i_mcp_server.h>
#include <limits.h>
#include <sys/stat.h>

#include "../common/mini_json.h"

#define MAX_READ (1024 * 1024)

struct entropic_mcp_server {
  char root[PATH_MAX]; /* realpath of the working directory, "" until set */
};

static const char TOOLS[] =
    "[{\"name\":\"list\",\"description\":\"Lists a directory inside the working directory.\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}}}},"
    "{\"name\":\"read\",\"description\":\"Reads a text file inside the working directory.\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},\"required\":[\"path\"]}}]";

/* Resolves `rel` inside the root into `out`; returns NULL or the reason it is refused. */
static const char* inside(const struct entropic_mcp_server* s, const char* rel, char* out) {
  if (s->root[0] == '\0') return "no working directory has been set";
  if (rel[0] == '/') return "absolute paths are refused; give a path relative to the working directory";
  for (const char* p = rel; *p; p = strchr(p, '/') ? strchr(p, '/') + 1 : p + strlen(p)) {
    if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || p[2] == '\0')) return "\"..\" is refused";
  }
  char joined[PATH_MAX * 2];
  snprintf(joined, sizeof joined, "%s/%s", s->root, rel);
  if (realpath(joined, out) == NULL) return "no such file or directory";
  size_t n = strlen(s->root);
  if (strncmp(out, s->root, n) != 0 || (out[n] != '/' && out[n] != '\0')) {
    return "the path leads outside the working directory (through a symlink)";
  }
  return NULL;
}

static char* refuse(const char* rel, const char* why) {
  size_t size = strlen(rel) + strlen(why) + 32;
  char* text = malloc(size);
  snprintf(text, size, "error: %s: %s", rel, why);
  char* answer = mj_answer(text, NULL);
  free(text);
  return answer;
}

static char* list(const char* path) {
  DIR* dir = opendir(path);
  if (dir == NULL) return mj_answer("error: not a directory", NULL);
  size_t cap = 4096, len = 0;
  char* text = malloc(cap);
  text[0] = '\0';
  for (struct dirent* e; (e = readdir(dir)) != NULL;) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (len + strlen(e->d_name) + 3 > cap) text = realloc(text, cap *= 2);
    len += (size_t)sprintf(text + len, "%s%s\n", e->d_name, e->d_type == DT_DIR ? "/" : "");
  }
  closedir(dir);
  char* answer = mj_answer(text, NULL);
  free(text);
  return answer;
}

static char* read_text(const char* path) {
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return mj_answer("error: not a regular file", NULL);
  if (st.st_size > MAX_READ) return mj_answer("error: file is larger than 1 MiB", NULL);
  FILE* f = fopen(path, "rb");
  if (f == NULL) return mj_answer("error: cannot open the file", NULL);
  char* text = malloc((size_t)st.st_size + 1);
  size_t got = fread(text, 1, (size_t)st.st_size, f);
  text[got] = '\0';
  fclose(f);
  char* answer = mj_answer(text, NULL);
  free(text);
  return answer;
}

int entropic_plugin_api_version(void) { return ENTROPIC_MCP_PLUGIN_API_VERSION; }

entropic_mcp_server_t entropic_create_server(void) { return calloc(1, sizeof(struct entropic_mcp_server)); }

const char* entropic_mcp_server_name(entropic_mcp_server_t server) {
  (void)server;
  return "files";
}

char* entropic_mcp_server_list_tools(entropic_mcp_server_t server) {
  (void)server;
  return strdup(TOOLS);
}

char* entropic_mcp_server_execute(entropic_mcp_server_t server, const char* tool, const char* args) {
  int is_list = strcmp(tool, "list") == 0;
  if (!is_list && strcmp(tool, "read") != 0) return mj_answer("error: unknown tool", NULL);
  char* rel = mj_string(args, "path");
  if (rel == NULL && !is_list) return mj_answer("error: \"path\" is required", NULL);
  char resolved[PATH_MAX];
  const char* why = inside(server, rel ? rel : ".", resolved);
  char* answer = why ? refuse(rel ? rel : ".", why) : is_list ? list(resolved) : read_text(resolved);
  free(rel);
  return answer;
}

entropic_error_t entropic_mcp_server_configure(entropic_mcp_server_t server, const char* config_json) {
  (void)server;
  (void)config_json;
  return ENTROPIC_OK;
}

entropic_error_t entropic_mcp_server_set_working_dir(entropic_mcp_server_t server, const char* path) {
  char resolved[PATH_MAX];
  struct stat st;
  if (path == NULL || realpath(path, resolved) == NULL) return ENTROPIC_ERROR_IO;
  if (stat(resolved, &st) != 0 || !S_ISDIR(st.st_mode)) return ENTROPIC_ERROR_INVALID_ARGUMENT;
  memcpy(server->root, resolved, sizeof server->root);
  return ENTROPIC_OK;
}

void entropic_mcp_server_destroy(entropic_mcp_server_t server) { free(server); }

void entropic_free(void* ptr) { free(ptr); }

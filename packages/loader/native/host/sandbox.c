/* Reads the sandbox description and applies its parts in order; answers --sandbox-probe (see sandbox.h). */
#include "sandbox.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sandbox_spec.h"

static int number(const char* text, long max, long* out) {
  char* end = NULL;
  errno = 0;
  long value = strtol(text, &end, 10);
  if (end == text || *end != '\0' || errno != 0 || value < -1 || value > max) return -1;
  *out = value;
  return 0;
}

static int add_path(const char** list, int* count, const char* path, sb_why_t* why) {
  if (path[0] != '/') return sb_fail(why, "sandbox path \"%s\" is not absolute", path);
  if (*count == SB_MAX_PATHS) return sb_fail(why, "more than %d sandbox paths of one kind", SB_MAX_PATHS);
  list[(*count)++] = path;
  return 0;
}

static int add_port(uint16_t* list, int* count, const char* text, sb_why_t* why) {
  long port;
  if (number(text, 65535, &port) != 0 || port < 0) return sb_fail(why, "sandbox port \"%s\" is not 0-65535", text);
  if (*count == SB_MAX_PORTS) return sb_fail(why, "more than %d sandbox ports of one kind", SB_MAX_PORTS);
  list[(*count)++] = (uint16_t)port;
  return 0;
}

/* One `key value` line; `text` is modified in place and must outlive the spec. */
static int parse_line(sb_spec_t* s, char* line, sb_why_t* why) {
  char* value = strchr(line, ' ');
  if (value == NULL) return sb_fail(why, "sandbox line \"%s\" has no value", line);
  *value++ = '\0';
  long n = 0;
  int numeric = number(value, 1L << 40, &n) == 0;
  if (strcmp(line, "read") == 0) return add_path(s->read, &s->read_count, value, why);
  if (strcmp(line, "write") == 0) return add_path(s->write, &s->write_count, value, why);
  if (strcmp(line, "connect") == 0) return add_port(s->connect, &s->connect_count, value, why);
  if (strcmp(line, "bind") == 0) return add_port(s->bind, &s->bind_count, value, why);
  if (strcmp(line, "net") == 0) {
    if (strcmp(value, "landlock") == 0) s->net = SB_NET_LANDLOCK;
    else if (strcmp(value, "netns") == 0) s->net = SB_NET_NETNS;
    else if (strcmp(value, "off") == 0) s->net = SB_NET_OFF;
    else return sb_fail(why, "sandbox net \"%s\" is not landlock, netns or off", value);
    return 0;
  }
  if (strcmp(line, "seccomp") == 0) {
    if (strcmp(value, "enforce") == 0) s->seccomp = SB_SECCOMP_ENFORCE;
    else if (strcmp(value, "audit") == 0) s->seccomp = SB_SECCOMP_AUDIT;
    else if (strcmp(value, "off") == 0) s->seccomp = SB_SECCOMP_OFF;
    else return sb_fail(why, "sandbox seccomp \"%s\" is not enforce, audit or off", value);
    return 0;
  }
  if (strcmp(line, "pids") == 0) {
    if (strcmp(value, "cgroup") == 0) s->pids = SB_PIDS_CGROUP;
    else if (strcmp(value, "nproc") == 0) s->pids = SB_PIDS_NPROC;
    else if (strcmp(value, "off") == 0) s->pids = SB_PIDS_OFF;
    else return sb_fail(why, "sandbox pids \"%s\" is not cgroup, nproc or off", value);
    return 0;
  }
  if (!numeric) return sb_fail(why, "sandbox %s \"%s\" is not a number", line, value);
  if (strcmp(line, "landlock") == 0) s->landlock_abi = (int)n;
  else if (strcmp(line, "scope") == 0) s->scope = n != 0;
  else if (strcmp(line, "exec") == 0) s->exec = n != 0;
  else if (strcmp(line, "udp") == 0) s->udp = n != 0;
  else if (strcmp(line, "processes") == 0) s->processes = n;
  else if (strcmp(line, "cpu") == 0) s->cpu_seconds = n;
  else if (strcmp(line, "files") == 0) s->open_files = n;
  else return sb_fail(why, "unknown sandbox key \"%s\"", line);
  return 0;
}

static int parse(sb_spec_t* s, char* text, sb_why_t* why) {
  memset(s, 0, sizeof *s);
  s->processes = -1;
  for (char* line = text; line != NULL && *line != '\0';) {
    char* next = strchr(line, '\n');
    if (next != NULL) *next++ = '\0';
    if (*line != '\0' && parse_line(s, line, why) != 0) return -1;
    line = next;
  }
  return 0;
}

/* In this order: what needs privileges (the cgroup, namespaces), then dropping them, then the limits (while
 * /proc/self/fd can still be read), then Landlock, then seccomp, which refuses setrlimit and unshare from then on. */
static int apply(const sb_spec_t* s, const char* plugin_path, sb_why_t* why) {
  long tasks = sb_own_tasks(s) + (s->processes < 0 ? 0 : s->processes);
  if (s->pids == SB_PIDS_CGROUP && sb_cgroup_join(tasks, why) != 0) return -1;
  if (sb_namespaces_apply(s, why) != 0) return -1;
  if (sb_drop_privileges(why) != 0) return -1;
  if (sb_limits_apply(s, why) != 0) return -1;
  if ((s->landlock_abi > 0 || s->net == SB_NET_LANDLOCK || s->scope) && sb_landlock_apply(s, plugin_path, why) != 0)
    return -1;
  if (s->seccomp != SB_SECCOMP_OFF && sb_seccomp_apply(s, why) != 0) return -1;
  return 0;
}

/* The description text stays allocated for the host's lifetime: the spec points into it. */
static char* description;

int sandbox_apply(const char* plugin_path, load_error_t* err) {
  const char* env = getenv("ENTROPIC_HOST_SANDBOX");
  if (env == NULL) return 0;
  description = strdup(env);
  unsetenv("ENTROPIC_HOST_SANDBOX");
  sb_why_t why = {""};
  sb_spec_t spec;
  int rc = description == NULL ? sb_fail(&why, "out of memory") : parse(&spec, description, &why);
  if (rc == 0) rc = apply(&spec, plugin_path, &why);
  if (rc != 0) {
    err->code = ENTROPIC_ERROR_PLUGIN_LOAD_FAILED;
    snprintf(err->message, sizeof err->message, "the sandbox could not be applied, so the plugin was not loaded: %s",
             why.text);
  }
  return rc;
}

int sandbox_probe(void) {
  int abi = sb_landlock_abi();
  const char* backend = sb_seccomp_backend();
  char cgroup[512] = "";
  int have_cgroup = sb_cgroup_parent(cgroup, sizeof cgroup) == 0;
  printf("{\"landlock\":%d,\"seccomp\":", abi);
  if (backend == NULL) printf("null");
  else printf("\"%s\"", backend);
  printf(",\"seccompAudit\":%s,\"pidsCgroup\":", sb_seccomp_audit_available() ? "true" : "false");
  if (!have_cgroup) printf("null");
  else {
    putchar('"');
    for (const char* c = cgroup; *c; c++) {
      if (*c == '"' || *c == '\\') putchar('\\');
      putchar(*c);
    }
    putchar('"');
  }
  printf(",\"nproc\":%s,\"netns\":%s,\"root\":%s}\n", sb_nproc_available() ? "true" : "false",
         sb_netns_available() ? "true" : "false", geteuid() == 0 ? "true" : "false");
  return fflush(stdout) == 0 ? 0 : 1;
}

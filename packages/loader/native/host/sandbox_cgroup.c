/*
 * The pids cgroup of one host: `entropic-host-<pid>` beside the cgroup the host started in, with pids.max at the
 * host's own tasks plus what the plugin may add. The kernel counts every thread and process in it, whoever the
 * user is (root included). The loader removes the group when the host has exited (src/sandbox/cgroup.ts), after
 * killing whatever the plugin left running in it.
 *
 * Works with a cgroup v1 `pids` hierarchy, or cgroup v2 when the pids controller is enabled for the children of
 * the host's cgroup; both need write access to that folder (root, or a delegated subtree).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox_spec.h"

/* Whether the comma list `list` holds `item`. */
static int has_item(const char* list, const char* item) {
  size_t len = strlen(item);
  for (const char* at = list; (at = strstr(at, item)) != NULL; at += len) {
    if ((at == list || at[-1] == ',') && (at[len] == '\0' || at[len] == ',' || at[len] == '\n')) return 1;
  }
  return 0;
}

/* Where the pids hierarchy (v1) or the unified one (v2, `v2` set) is mounted, and the root it shows. */
static int find_mount(char* point, size_t point_size, char* root, size_t root_size, int* v2) {
  FILE* f = fopen("/proc/self/mountinfo", "re");
  if (f == NULL) return -1;
  char line[4096];
  int found = 0;
  while (fgets(line, sizeof line, f) != NULL) {
    char mroot[1024], mpoint[1024];
    if (sscanf(line, "%*s %*s %*s %1023s %1023s", mroot, mpoint) != 2) continue;
    const char* dash = strstr(line, " - ");
    if (dash == NULL) continue;
    char fstype[64], source[256], options[1024] = "";
    if (sscanf(dash + 3, "%63s %255s %1023s", fstype, source, options) < 2) continue;
    int is_v1 = strcmp(fstype, "cgroup") == 0 && has_item(options, "pids");
    int is_v2 = strcmp(fstype, "cgroup2") == 0;
    if (!is_v1 && !(is_v2 && !found)) continue;
    snprintf(point, point_size, "%s", mpoint);
    snprintf(root, root_size, "%s", mroot);
    *v2 = is_v2;
    found = 1;
    if (is_v1) break; /* a v1 pids hierarchy wins over the unified one */
  }
  fclose(f);
  return found ? 0 : -1;
}

/* The host's own cgroup in that hierarchy, from /proc/self/cgroup. */
static int own_cgroup(int v2, char* out, size_t size) {
  FILE* f = fopen("/proc/self/cgroup", "re");
  if (f == NULL) return -1;
  char line[4096];
  int found = -1;
  while (fgets(line, sizeof line, f) != NULL) {
    line[strcspn(line, "\n")] = '\0';
    char* controllers = strchr(line, ':');
    char* path = controllers == NULL ? NULL : strchr(controllers + 1, ':');
    if (path == NULL) continue;
    *path++ = '\0';
    controllers++;
    if (v2 ? strcmp(line, "0") == 0 && *controllers == '\0' : has_item(controllers, "pids")) {
      snprintf(out, size, "%s", path);
      found = 0;
      break;
    }
  }
  fclose(f);
  return found;
}

/* The folder, without checking that a group can be made in it. */
static int locate(char* out, size_t size) {
  char point[1024], root[1024], own[1024];
  int v2 = 0;
  if (find_mount(point, sizeof point, root, sizeof root, &v2) != 0 || own_cgroup(v2, own, sizeof own) != 0) return -1;
  /* Inside a cgroup namespace the mount's root and the path are both relative to the namespace. */
  const char* rel = own;
  size_t root_len = strcmp(root, "/") == 0 ? 0 : strlen(root);
  if (root_len > 0 && strncmp(own, root, root_len) == 0) rel = own + root_len;
  snprintf(out, size, "%s%s", point, strcmp(rel, "/") == 0 ? "" : rel);
  if (!v2) return 0;
  char control[1200], enabled[256] = "";
  snprintf(control, sizeof control, "%s/cgroup.subtree_control", out);
  FILE* f = fopen(control, "re");
  if (f == NULL) return -1;
  int ok = fgets(enabled, sizeof enabled, f) != NULL && has_item(enabled, "pids");
  fclose(f);
  return ok ? 0 : -1;
}

static int write_text(const char* dir, const char* file, const char* text, sb_why_t* why) {
  char path[1400];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  ssize_t n = fd < 0 ? -1 : write(fd, text, strlen(text));
  int saved = errno;
  if (fd >= 0) close(fd);
  if (n != (ssize_t)strlen(text)) return sb_fail(why, "cannot write %s: %s", path, strerror(saved));
  return 0;
}

int sb_cgroup_join(long tasks, sb_why_t* why) {
  char parent[1024], group[1200], text[32];
  if (sb_simulated_missing("pids-cgroup") || locate(parent, sizeof parent) != 0)
    return sb_fail(why, "no pids cgroup hierarchy is mounted with the pids controller for this process");
  snprintf(group, sizeof group, "%s/entropic-host-%ld", parent, (long)getpid());
  if (mkdir(group, 0755) != 0 && errno != EEXIST) return sb_fail(why, "cannot make %s: %s", group, strerror(errno));
  snprintf(text, sizeof text, "%ld", tasks);
  if (write_text(group, "pids.max", text, why) != 0) return -1;
  snprintf(text, sizeof text, "%ld", (long)getpid());
  return write_text(group, "cgroup.procs", text, why);
}

/* Whether a child process can make a group under `parent` and move into it (a cgroup v2 parent with processes of
 * its own refuses the move); the group is removed once the child is gone. */
static int can_join(const char* parent) {
  char probe[1200];
  pid_t pid = fork();
  if (pid < 0) return 0;
  snprintf(probe, sizeof probe, "%s/entropic-probe-%ld", parent, (long)(pid == 0 ? getpid() : pid));
  if (pid == 0) {
    sb_why_t why;
    char self[32];
    snprintf(self, sizeof self, "%ld", (long)getpid());
    int ok = mkdir(probe, 0755) == 0 && write_text(probe, "pids.max", "8", &why) == 0 &&
             write_text(probe, "cgroup.procs", self, &why) == 0;
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  rmdir(probe);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int sb_cgroup_parent(char* out, size_t size) {
  if (sb_simulated_missing("pids-cgroup") || locate(out, size) != 0) return -1;
  return can_join(out) ? 0 : -1;
}

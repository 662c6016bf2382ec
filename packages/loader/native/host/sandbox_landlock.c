/*
 * The Landlock ruleset of the sandbox: the `read` and `write` paths, what the host itself needs to load the plugin
 * (the plugin file, the system library folders and ld.so.cache, the folders of LD_LIBRARY_PATH, /dev/null and the
 * random and zero devices), the TCP ports of `connect` and `bind`, and the scopes that keep signals and abstract
 * unix sockets inside the sandbox. Every right this ABI knows is handled, so whatever is not granted is refused
 * (EACCES), root included: Landlock does not look at users or capabilities.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox_abi.h"
#include "sandbox_spec.h"

int sb_landlock_abi(void) {
  if (sb_simulated_missing("landlock")) return 0;
  long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, SB_LANDLOCK_CREATE_RULESET_VERSION);
  if (abi < 0) return 0;
  if (sb_simulated_missing("landlock-net") && abi > 3) abi = 3;
  if (sb_simulated_missing("landlock-scope") && abi > 5) abi = 5;
  return (int)abi;
}

/* Every filesystem right the ABI knows. */
static uint64_t fs_rights(int abi) {
  uint64_t all = (SB_FS_MAKE_SYM << 1) - 1;
  if (abi >= 2) all |= SB_FS_REFER;
  if (abi >= 3) all |= SB_FS_TRUNCATE;
  if (abi >= 5) all |= SB_FS_IOCTL_DEV;
  return all;
}

/* The rights a rule on a file (rather than a folder) may carry. */
#define FILE_RIGHTS (SB_FS_EXECUTE | SB_FS_WRITE_FILE | SB_FS_READ_FILE | SB_FS_TRUNCATE | SB_FS_IOCTL_DEV)

#define READ_RIGHTS (SB_FS_READ_FILE | SB_FS_READ_DIR)
#define WRITE_RIGHTS                                                                                           \
  (SB_FS_WRITE_FILE | SB_FS_REMOVE_DIR | SB_FS_REMOVE_FILE | SB_FS_MAKE_DIR | SB_FS_MAKE_REG | SB_FS_MAKE_SYM | \
   SB_FS_MAKE_FIFO | SB_FS_REFER | SB_FS_TRUNCATE)

typedef struct {
  int ruleset;
  uint64_t handled;
  sb_why_t* why;
} rules_t;

/* Grants `rights` beneath `path` (or on it, for a file). A missing optional path is skipped. */
static int allow(rules_t* r, const char* path, uint64_t rights, int optional) {
  int fd = open(path, O_PATH | O_CLOEXEC);
  if (fd < 0) {
    if (optional && (errno == ENOENT || errno == ENOTDIR)) return 0;
    return sb_fail(r->why, "sandbox path %s cannot be opened: %s", path, strerror(errno));
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    close(fd);
    return sb_fail(r->why, "sandbox path %s: %s", path, strerror(errno));
  }
  if (!S_ISDIR(st.st_mode)) rights &= FILE_RIGHTS;
  struct sb_landlock_path_beneath rule = {rights & r->handled, fd};
  long rc = rule.allowed_access == 0 ? 0 : syscall(SYS_landlock_add_rule, r->ruleset, SB_LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
  int saved = errno;
  close(fd);
  if (rc != 0) return sb_fail(r->why, "Landlock rule for %s: %s", path, strerror(saved));
  return 0;
}

static int allow_port(rules_t* r, uint16_t port, uint64_t right) {
  struct sb_landlock_net_port rule = {right, port};
  if (syscall(SYS_landlock_add_rule, r->ruleset, SB_LANDLOCK_RULE_NET_PORT, &rule, 0) != 0)
    return sb_fail(r->why, "Landlock rule for TCP port %u: %s", (unsigned)port, strerror(errno));
  return 0;
}

/* What the host needs to open the plugin and what it links against. */
static int allow_host_needs(rules_t* r, const char* plugin_path, uint64_t exec) {
  static const char* const libraries[] = {"/lib",     "/lib64",     "/lib32",   "/libx32",        "/usr/lib",
                                          "/usr/lib64", "/usr/lib32", "/usr/libx32", "/usr/local/lib"};
  for (size_t i = 0; i < sizeof libraries / sizeof libraries[0]; i++)
    if (allow(r, libraries[i], SB_FS_READ_FILE | exec, 1) != 0) return -1;
  if (allow(r, "/etc/ld.so.cache", SB_FS_READ_FILE, 1) != 0) return -1;
  const char* extra = getenv("LD_LIBRARY_PATH");
  if (extra != NULL) {
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", extra);
    for (char *save = NULL, *dir = strtok_r(copy, ":", &save); dir != NULL; dir = strtok_r(NULL, ":", &save))
      if (dir[0] == '/' && allow(r, dir, SB_FS_READ_FILE | exec, 1) != 0) return -1;
  }
  if (allow(r, plugin_path, SB_FS_READ_FILE, 0) != 0) return -1;
  if (allow(r, "/dev/null", SB_FS_READ_FILE | SB_FS_WRITE_FILE, 1) != 0) return -1;
  if (allow(r, "/dev/zero", SB_FS_READ_FILE, 1) != 0) return -1;
  if (allow(r, "/dev/urandom", SB_FS_READ_FILE, 1) != 0) return -1;
  return allow(r, "/dev/random", SB_FS_READ_FILE, 1);
}

static int add_rules(rules_t* r, const sb_spec_t* s, const char* plugin_path) {
  if (s->landlock_abi > 0) {
    uint64_t exec = s->exec ? SB_FS_EXECUTE : 0;
    if (allow_host_needs(r, plugin_path, exec) != 0) return -1;
    for (int i = 0; i < s->read_count; i++)
      if (allow(r, s->read[i], READ_RIGHTS | exec, 0) != 0) return -1;
    for (int i = 0; i < s->write_count; i++)
      if (allow(r, s->write[i], READ_RIGHTS | WRITE_RIGHTS, 0) != 0) return -1;
  }
  if (s->net != SB_NET_LANDLOCK) return 0;
  for (int i = 0; i < s->connect_count; i++)
    if (allow_port(r, s->connect[i], SB_NET_CONNECT_TCP) != 0) return -1;
  for (int i = 0; i < s->bind_count; i++)
    if (allow_port(r, s->bind[i], SB_NET_BIND_TCP) != 0) return -1;
  return 0;
}

int sb_landlock_apply(const sb_spec_t* s, const char* plugin_path, sb_why_t* why) {
  int abi = sb_landlock_abi();
  if (abi < s->landlock_abi) return sb_fail(why, "Landlock ABI %d was asked for; this kernel has %d", s->landlock_abi, abi);
  if (s->net == SB_NET_LANDLOCK && abi < 4) return sb_fail(why, "Landlock TCP rules need ABI 4; this kernel has %d", abi);
  if (s->scope && abi < 6) return sb_fail(why, "Landlock scopes need ABI 6; this kernel has %d", abi);
  struct sb_landlock_ruleset_attr attr = {0, 0, 0};
  if (s->landlock_abi > 0) attr.handled_access_fs = fs_rights(s->landlock_abi);
  if (s->net == SB_NET_LANDLOCK) attr.handled_access_net = SB_NET_BIND_TCP | SB_NET_CONNECT_TCP;
  if (s->scope) attr.scoped = SB_SCOPE_ABSTRACT_UNIX_SOCKET | SB_SCOPE_SIGNAL;
  /* An older kernel reads only the fields it knows: give it no more than that. */
  size_t size = s->scope ? sizeof attr : attr.handled_access_net ? 2 * sizeof(uint64_t) : sizeof(uint64_t);
  int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
  if (ruleset < 0) return sb_fail(why, "landlock_create_ruleset: %s", strerror(errno));
  rules_t r = {ruleset, attr.handled_access_fs, why};
  int rc = add_rules(&r, s, plugin_path);
  if (rc == 0 && syscall(SYS_landlock_restrict_self, ruleset, 0) != 0)
    rc = sb_fail(why, "landlock_restrict_self: %s", strerror(errno));
  close(ruleset);
  return rc;
}

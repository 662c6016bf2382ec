/* Resource limits, no_new_privs and capabilities, and the namespaces of the sandbox (see sandbox_spec.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox_abi.h"
#include "sandbox_spec.h"

#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#define PR_CAP_AMBIENT_CLEAR_ALL 4
#endif

long sb_own_tasks(const sb_spec_t* spec) { return spec->seccomp == SB_SECCOMP_AUDIT ? 3 : 2; }

/* Descriptors the host opens after the limits are set: the flusher's timer, and the audit mode's listener. */
static long fds_to_come(const sb_spec_t* spec) { return spec->seccomp == SB_SECCOMP_AUDIT ? 2 : 1; }

/* Closes what the host inherited by mistake (every descriptor the host keeps is close-on-exec, 0-2 aside), so
 * the plugin holds nothing from outside the sandbox; answers the highest descriptor still open. */
static int close_strays(void) {
  int highest = 2;
  DIR* dir = opendir("/proc/self/fd");
  if (dir == NULL) {
    for (int fd = 3; fd < 1024; fd++) {
      int flags = fcntl(fd, F_GETFD);
      if (flags >= 0 && !(flags & FD_CLOEXEC)) close(fd);
      else if (flags >= 0) highest = fd;
    }
    return highest;
  }
  struct dirent* e;
  while ((e = readdir(dir)) != NULL) {
    int fd = atoi(e->d_name);
    if (fd <= 2 || fd == dirfd(dir)) continue;
    int flags = fcntl(fd, F_GETFD);
    if (flags >= 0 && !(flags & FD_CLOEXEC)) close(fd);
    else if (flags >= 0 && fd > highest) highest = fd;
  }
  closedir(dir);
  return highest;
}

static int set_limit(int which, rlim_t soft, rlim_t hard, const char* name, sb_why_t* why) {
  struct rlimit limit = {soft, hard};
  if (setrlimit(which, &limit) != 0) return sb_fail(why, "setrlimit(%s): %s", name, strerror(errno));
  return 0;
}

int sb_limits_apply(const sb_spec_t* spec, sb_why_t* why) {
  int highest = close_strays();
  /* SIGXCPU at the limit (the loader names it); SIGKILL a second later if the plugin ignores that signal. */
  if (spec->cpu_seconds > 0 &&
      set_limit(RLIMIT_CPU, (rlim_t)spec->cpu_seconds, (rlim_t)spec->cpu_seconds + 1, "RLIMIT_CPU", why) != 0)
    return -1;
  /* RLIMIT_NOFILE bounds descriptor numbers, not a count: room above what is open, for the host and the plugin. */
  if (spec->open_files > 0) {
    rlim_t fds = (rlim_t)(highest + 1 + fds_to_come(spec) + spec->open_files);
    if (set_limit(RLIMIT_NOFILE, fds, fds, "RLIMIT_NOFILE", why) != 0) return -1;
  }
  if (spec->pids == SB_PIDS_NPROC) {
    rlim_t tasks = (rlim_t)(sb_own_tasks(spec) + (spec->processes < 0 ? 0 : spec->processes));
    if (set_limit(RLIMIT_NPROC, tasks, tasks, "RLIMIT_NPROC", why) != 0) return -1;
  }
  return 0;
}

int sb_drop_privileges(sb_why_t* why) {
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return sb_fail(why, "no_new_privs: %s", strerror(errno));
  struct sb_cap_header head = {SB_CAPABILITY_VERSION_3, 0};
  struct sb_cap_data data[2];
  if (syscall(SYS_capget, &head, data) != 0) return sb_fail(why, "capget: %s", strerror(errno));
  if ((data[0].permitted | data[1].permitted | data[0].inheritable | data[1].inheritable) == 0) return 0;
  /* Root (or a process in a user namespace of its own): the bounding set first, which needs CAP_SETPCAP. */
  for (int cap = 0; cap < 64; cap++) {
    if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0) {
      if (errno == EINVAL) break; /* past the last capability this kernel knows */
      return sb_fail(why, "dropping capability %d from the bounding set: %s", cap, strerror(errno));
    }
  }
  if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL)
    return sb_fail(why, "clearing ambient capabilities: %s", strerror(errno));
  memset(data, 0, sizeof data);
  if (syscall(SYS_capset, &head, data) != 0) return sb_fail(why, "dropping capabilities: %s", strerror(errno));
  return 0;
}

static int write_file(const char* path, const char* text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = write(fd, text, strlen(text));
  int saved = errno;
  close(fd);
  errno = saved;
  return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* Maps the caller's own uid and gid into the user namespace it just made: files keep their owners. */
static int map_self(uid_t uid, gid_t gid, sb_why_t* why) {
  char line[64];
  snprintf(line, sizeof line, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
  if (write_file("/proc/self/uid_map", line) != 0) return sb_fail(why, "uid_map: %s", strerror(errno));
  if (write_file("/proc/self/setgroups", "deny") != 0 && errno != ENOENT)
    return sb_fail(why, "setgroups: %s", strerror(errno));
  snprintf(line, sizeof line, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
  if (write_file("/proc/self/gid_map", line) != 0) return sb_fail(why, "gid_map: %s", strerror(errno));
  return 0;
}

int sb_namespaces_apply(const sb_spec_t* spec, sb_why_t* why) {
  int flags = 0;
  if (spec->net == SB_NET_NETNS) flags |= CLONE_NEWNET;
  /* Without root, a network namespace needs a user namespace; RLIMIT_NPROC counts the host alone in one. */
  if (spec->pids == SB_PIDS_NPROC || (flags != 0 && geteuid() != 0)) flags |= CLONE_NEWUSER;
  if (flags == 0) return 0;
  uid_t uid = geteuid();
  gid_t gid = getegid();
  if (unshare(flags) != 0) {
    return sb_fail(why, "unshare(%s%s): %s", flags & CLONE_NEWUSER ? "CLONE_NEWUSER " : "",
                   flags & CLONE_NEWNET ? "CLONE_NEWNET" : "", strerror(errno));
  }
  return flags & CLONE_NEWUSER ? map_self(uid, gid, why) : 0;
}

/* Runs `try` in a child process (the probe must not change itself) and tells whether it succeeded. */
static int in_child(int (*try)(void)) {
  pid_t pid = fork();
  if (pid < 0) return 0;
  if (pid == 0) _exit(try() == 0 ? 0 : 1);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int try_netns(void) { return unshare(geteuid() == 0 ? CLONE_NEWNET : CLONE_NEWUSER | CLONE_NEWNET); }

/* RLIMIT_NPROC never applies to uid 0, even in a user namespace; for anyone else it counts the namespace's tasks. */
static int try_nproc(void) {
  if (geteuid() == 0) return -1;
  sb_spec_t spec;
  memset(&spec, 0, sizeof spec);
  spec.pids = SB_PIDS_NPROC;
  sb_why_t why;
  return sb_namespaces_apply(&spec, &why);
}

int sb_netns_available(void) { return !sb_simulated_missing("netns") && in_child(try_netns); }

int sb_nproc_available(void) { return !sb_simulated_missing("nproc") && in_child(try_nproc); }

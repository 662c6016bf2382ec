/*
 * The seccomp part of the sandbox: builds the policy (sandbox_policy.c) and loads it with the back-end this host
 * was built with. In audit mode the refusals become notifications: a supervisor thread writes one line to stderr
 * for each call that would have been refused (the first few of each system call) and lets the call go on. The
 * supervisor lives in the plugin's own process, so audit mode is a way to learn what a plugin does, never a
 * boundary.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox_abi.h"
#include "sandbox_policy.h"

#define AUDIT_LINES_PER_CALL 8

static int listener = -1;
static sb_rule_t rules[SB_MAX_RULES];

typedef struct {
  int nr;
  int lines;
} seen_t;

static void report(const struct sb_seccomp_notif* req, seen_t* seen, int seen_max) {
  int i = 0;
  while (i < seen_max && seen[i].lines > 0 && seen[i].nr != req->nr) i++;
  if (i == seen_max) i = seen_max - 1;
  seen[i].nr = req->nr;
  if (++seen[i].lines > AUDIT_LINES_PER_CALL + 1) return;
  char line[256];
  int n = seen[i].lines > AUDIT_LINES_PER_CALL
              ? snprintf(line, sizeof line, "entropic_plugin_host: sandbox audit: further %s calls are not logged\n",
                         sb_policy_name(req->nr))
              : snprintf(line, sizeof line,
                         "entropic_plugin_host: sandbox audit: %s(0x%llx, 0x%llx, 0x%llx) by process %u would be "
                         "refused; allowed in audit mode\n",
                         sb_policy_name(req->nr), (unsigned long long)req->args[0], (unsigned long long)req->args[1],
                         (unsigned long long)req->args[2], req->pid);
  if (n > 0 && write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) < 0) {
    /* stderr is gone: nothing else to tell */
  }
}

static void* supervise(void* unused) {
  (void)unused;
  seen_t seen[SB_MAX_RULES];
  memset(seen, 0, sizeof seen);
  for (;;) {
    struct sb_seccomp_notif req;
    memset(&req, 0, sizeof req);
    if (ioctl(listener, SB_SECCOMP_IOCTL_NOTIF_RECV, &req) != 0) {
      if (errno == EINTR || errno == ENOENT) continue;
      return NULL;
    }
    report(&req, seen, SB_MAX_RULES);
    struct sb_seccomp_notif_resp resp = {req.id, 0, 0, SB_SECCOMP_USER_NOTIF_FLAG_CONTINUE};
    ioctl(listener, SB_SECCOMP_IOCTL_NOTIF_SEND, &resp); /* ENOENT: the caller is gone */
  }
}

int sb_seccomp_apply(const sb_spec_t* spec, sb_why_t* why) {
  int audit = spec->seccomp == SB_SECCOMP_AUDIT;
  int count = sb_policy(spec, rules, SB_MAX_RULES);
  if (count == SB_MAX_RULES) return sb_fail(why, "the system-call policy has more than %d rows", SB_MAX_RULES - 1);
  if (sb_filter_load(rules, count, audit, &listener, why) != 0) return -1;
  if (!audit) return 0;
  pthread_t thread;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  int rc = pthread_create(&thread, &attr, supervise, NULL);
  pthread_attr_destroy(&attr);
  if (rc != 0) return sb_fail(why, "cannot start the audit supervisor: %s", strerror(rc));
  return 0;
}

const char* sb_seccomp_backend(void) {
  uint32_t action = SB_SECCOMP_RET_ERRNO;
  if (sb_simulated_missing("seccomp") || syscall(SYS_seccomp, SB_SECCOMP_GET_ACTION_AVAIL, 0, &action) != 0) return NULL;
  return sb_filter_backend();
}

int sb_seccomp_audit_available(void) {
  uint32_t action = SB_SECCOMP_RET_USER_NOTIF;
  return sb_seccomp_backend() != NULL && syscall(SYS_seccomp, SB_SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;
}

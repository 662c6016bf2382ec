/* The system calls the sandbox refuses, and when (see sandbox_policy.h). The one place that decides them. */
#define _GNU_SOURCE
#include "sandbox_policy.h"

#include <errno.h>
#include <netinet/in.h>
#include <sched.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>

/* Calls added since Linux 5.1 have the same number on every architecture; older C libraries may not name them. */
#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup 425
#define SYS_io_uring_enter 426
#define SYS_io_uring_register 427
#endif
#ifndef SYS_open_tree
#define SYS_open_tree 428
#define SYS_move_mount 429
#define SYS_fsopen 430
#define SYS_fsconfig 431
#define SYS_fsmount 432
#define SYS_fspick 433
#endif
#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#ifndef SYS_quotactl_fd
#define SYS_quotactl_fd 443
#endif
#ifndef SYS_open_tree_attr
#define SYS_open_tree_attr 467
#endif

/* The namespace flags of clone (CLONE_NEWTIME shares its bit with the exit signal there and needs clone3). */
#define NAMESPACE_FLAGS \
  (CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET)

typedef struct {
  sb_rule_t* rules;
  int count;
  int max;
} builder_t;

static sb_rule_t* add(builder_t* b, int nr, const char* name, int error) {
  if (b->count == b->max) return NULL;
  sb_rule_t* r = &b->rules[b->count++];
  memset(r, 0, sizeof *r);
  r->nr = nr;
  r->name = name;
  r->test = SB_TEST_ALWAYS;
  r->error = error;
  return r;
}

/* Refused unless (arg & mask) is one of the `count` values. */
static void only(builder_t* b, int nr, const char* name, unsigned arg, uint32_t mask, const uint32_t* values, int count) {
  sb_rule_t* r = add(b, nr, name, EPERM);
  if (r == NULL) return;
  r->test = SB_TEST_NOT_IN;
  r->arg = arg;
  r->mask = mask;
  for (int i = 0; i < count && i < SB_RULE_VALUES; i++) r->values[r->value_count++] = values[i];
}

#define REFUSE(call) add(b, SYS_##call, #call, EPERM)

/* Starting programs and processes. */
static void processes(builder_t* b, const sb_spec_t* s) {
  if (!s->exec) {
    REFUSE(execve);
    REFUSE(execveat);
  }
  /* clone3 passes its flags in memory a filter cannot read: ENOSYS makes the C library use clone instead. */
  add(b, SYS_clone3, "clone3", ENOSYS);
  sb_rule_t* r = add(b, SYS_clone, "clone", EPERM);
  if (r != NULL) { /* a namespace of its own */
    r->test = SB_TEST_NOT_IN;
    r->mask = NAMESPACE_FLAGS;
    r->value_count = 1;
  }
  if (s->processes > 0) return;
  r = add(b, SYS_clone, "clone", EPERM);
  if (r != NULL) { /* a process rather than a thread */
    r->test = SB_TEST_EQ;
    r->mask = CLONE_THREAD;
    r->value_count = 1;
  }
#ifdef SYS_fork
  REFUSE(fork);
#endif
#ifdef SYS_vfork
  REFUSE(vfork);
#endif
}

/* Reaching into other processes, changing mounts and namespaces, and the kernel's own switches. */
static void escapes(builder_t* b) {
  REFUSE(ptrace);
  REFUSE(process_vm_readv);
  REFUSE(process_vm_writev);
  REFUSE(kcmp);
  REFUSE(pidfd_getfd);
  REFUSE(mount);
  REFUSE(umount2);
  REFUSE(pivot_root);
  REFUSE(chroot);
  REFUSE(open_tree);
  REFUSE(open_tree_attr);
  REFUSE(move_mount);
  REFUSE(fsopen);
  REFUSE(fsconfig);
  REFUSE(fsmount);
  REFUSE(fspick);
  REFUSE(mount_setattr);
  REFUSE(unshare);
  REFUSE(setns);
  REFUSE(bpf);
  REFUSE(perf_event_open);
  REFUSE(userfaultfd);
  REFUSE(io_uring_setup);
  REFUSE(io_uring_enter);
  REFUSE(io_uring_register);
  REFUSE(keyctl);
  REFUSE(add_key);
  REFUSE(request_key);
  REFUSE(init_module);
  REFUSE(finit_module);
  REFUSE(delete_module);
  REFUSE(kexec_load);
#ifdef SYS_kexec_file_load
  REFUSE(kexec_file_load);
#endif
  REFUSE(reboot);
  REFUSE(swapon);
  REFUSE(swapoff);
  REFUSE(acct);
  REFUSE(quotactl);
  REFUSE(quotactl_fd);
  REFUSE(syslog);
  REFUSE(vhangup);
  REFUSE(settimeofday);
  REFUSE(clock_settime);
  REFUSE(clock_adjtime);
  REFUSE(adjtimex);
  REFUSE(name_to_handle_at);
  REFUSE(open_by_handle_at);
#ifdef SYS_iopl
  REFUSE(iopl);
  REFUSE(ioperm);
#endif
#ifdef SYS_uselib
  REFUSE(uselib);
#endif
#ifdef SYS_lookup_dcookie
  REFUSE(lookup_dcookie);
#endif
}

/* Raising its own limits: setrlimit always, prlimit64 when it sets one (reading stays allowed). */
static void limits(builder_t* b) {
#ifdef SYS_setrlimit
  REFUSE(setrlimit);
#endif
  sb_rule_t* r = REFUSE(prlimit64);
  if (r != NULL) {
    r->test = SB_TEST_NONZERO64;
    r->arg = 2;
  }
}

/* Sockets: TCP over IPv4 and IPv6 (which Landlock filters by port), UDP when asked, and unnamed unix socket
 * pairs. Everything else is refused: unix sockets that could reach a daemon by its path, netlink, raw packets. */
static void sockets(builder_t* b, const sb_spec_t* s) {
  const uint32_t families[] = {AF_INET, AF_INET6};
  const uint32_t types[] = {SOCK_STREAM, SOCK_DGRAM};
  const uint32_t protocols[] = {0, IPPROTO_TCP, IPPROTO_UDP};
  const uint32_t unix_only[] = {AF_UNIX};
  only(b, SYS_socket, "socket", 0, 0xffffffffu, families, 2);
  only(b, SYS_socket, "socket", 1, 0xf, types, s->udp ? 2 : 1);
  only(b, SYS_socket, "socket", 2, 0xffffffffu, protocols, s->udp ? 3 : 2);
  only(b, SYS_socketpair, "socketpair", 0, 0xffffffffu, unix_only, 1);
}

static sb_rule_t* last_rules;
static int last_count;

int sb_policy(const sb_spec_t* spec, sb_rule_t* rules, int max) {
  builder_t b = {rules, 0, max};
  processes(&b, spec);
  escapes(&b);
  limits(&b);
  sockets(&b, spec);
  last_rules = rules;
  last_count = b.count;
  return b.count;
}

const char* sb_policy_name(int nr) {
  for (int i = 0; i < last_count; i++)
    if (last_rules[i].nr == nr) return last_rules[i].name;
  return "syscall";
}

/* The sandbox description read from ENTROPIC_HOST_SANDBOX (format in sandbox.h), and the parts that apply it. */
#ifndef ENTROPIC_HOST_SANDBOX_SPEC_H
#define ENTROPIC_HOST_SANDBOX_SPEC_H

#include <stddef.h>
#include <stdint.h>

/* The loader refuses more (src/sandbox/options.ts). */
#define SB_MAX_PATHS 64
#define SB_MAX_PORTS 64

typedef enum { SB_NET_OFF, SB_NET_LANDLOCK, SB_NET_NETNS } sb_net_t;
typedef enum { SB_SECCOMP_OFF, SB_SECCOMP_ENFORCE, SB_SECCOMP_AUDIT } sb_seccomp_t;
/* How the plugin's tasks are counted: not at all, in a pids cgroup, or by RLIMIT_NPROC inside a user namespace of
 * the host's own (RLIMIT_NPROC counts per user and namespace, and never applies to root). */
typedef enum { SB_PIDS_OFF, SB_PIDS_CGROUP, SB_PIDS_NPROC } sb_pids_t;

typedef struct {
  int landlock_abi; /* 0: no filesystem rules */
  sb_net_t net;
  int scope;
  sb_seccomp_t seccomp;
  sb_pids_t pids;
  const char* read[SB_MAX_PATHS];
  int read_count;
  const char* write[SB_MAX_PATHS];
  int write_count;
  uint16_t connect[SB_MAX_PORTS];
  int connect_count;
  uint16_t bind[SB_MAX_PORTS];
  int bind_count;
  int exec;
  int udp;
  long processes; /* -1: not counted (no new processes, threads free) */
  long cpu_seconds; /* 0: no limit */
  long open_files;  /* 0: no limit */
} sb_spec_t;

/* What went wrong, for the load error. Each part fills it and returns -1. */
typedef struct {
  char text[1024];
} sb_why_t;

int sb_fail(sb_why_t* why, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

/* Landlock (sandbox_landlock.c): the ABI this kernel has (0: none); the rules of `spec`, restricting the caller. */
int sb_landlock_abi(void);
int sb_landlock_apply(const sb_spec_t* spec, const char* plugin_path, sb_why_t* why);

/* Resource limits, privileges and namespaces (sandbox_limits.c). */
/* The host's own tasks once it serves (the main thread, the flusher's watchdog, the audit supervisor). */
long sb_own_tasks(const sb_spec_t* spec);
int sb_limits_apply(const sb_spec_t* spec, sb_why_t* why);
int sb_drop_privileges(sb_why_t* why);
/* A user namespace (for RLIMIT_NPROC, or for a network namespace without root) and/or a network namespace. */
int sb_namespaces_apply(const sb_spec_t* spec, sb_why_t* why);
/* For the probe: whether this process can make a network namespace, and a user namespace that makes
 * RLIMIT_NPROC count the host alone. Each tries for real, so call them last, in a process that then exits. */
int sb_netns_available(void);
int sb_nproc_available(void);

/* The pids cgroup (sandbox_cgroup.c): the folder hosts make their groups in ("" when none can be made here), and
 * joining one of its own with room for `extra` tasks beyond the host's. */
int sb_cgroup_parent(char* out, size_t size);
int sb_cgroup_join(long extra, sb_why_t* why);

/* seccomp (sandbox_seccomp.c): the filter for `spec`, enforced or (audit) logged by a supervisor thread. */
int sb_seccomp_apply(const sb_spec_t* spec, sb_why_t* why);
/* "libseccomp 2.5.4", "built-in BPF", or NULL when this kernel or architecture has no seccomp filters. */
const char* sb_seccomp_backend(void);
/* Whether the audit mode's notifications are there (Linux 5.0). */
int sb_seccomp_audit_available(void);

/* A kernel part the test suite pretends is missing (ENTROPIC_SANDBOX_SIMULATE_MISSING, a comma list). */
int sb_simulated_missing(const char* part);

#endif

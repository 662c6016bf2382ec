/*
 * The kernel interfaces the sandbox uses (Landlock, seccomp BPF, capabilities), declared here from the kernel's
 * documented ABI: the installed <linux/landlock.h> may predate the network rules and scopes (Debian 12 ships the
 * 6.1 headers), and musl-gcc sees no <linux/...> headers at all. Every value is fixed by the kernel ABI.
 */
#ifndef ENTROPIC_HOST_SANDBOX_ABI_H
#define ENTROPIC_HOST_SANDBOX_ABI_H

#include <stdint.h>
#include <sys/syscall.h>

/* ---- Landlock (Documentation/userspace-api/landlock.rst) ---- */

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

struct sb_landlock_ruleset_attr {
  uint64_t handled_access_fs;
  uint64_t handled_access_net; /* ABI 4 */
  uint64_t scoped;             /* ABI 6 */
};

struct sb_landlock_path_beneath {
  uint64_t allowed_access;
  int32_t parent_fd;
} __attribute__((packed));

struct sb_landlock_net_port {
  uint64_t allowed_access;
  uint64_t port;
};

#define SB_LANDLOCK_CREATE_RULESET_VERSION (1u << 0)
#define SB_LANDLOCK_RULE_PATH_BENEATH 1
#define SB_LANDLOCK_RULE_NET_PORT 2

#define SB_FS_EXECUTE (1ull << 0)
#define SB_FS_WRITE_FILE (1ull << 1)
#define SB_FS_READ_FILE (1ull << 2)
#define SB_FS_READ_DIR (1ull << 3)
#define SB_FS_REMOVE_DIR (1ull << 4)
#define SB_FS_REMOVE_FILE (1ull << 5)
#define SB_FS_MAKE_CHAR (1ull << 6)
#define SB_FS_MAKE_DIR (1ull << 7)
#define SB_FS_MAKE_REG (1ull << 8)
#define SB_FS_MAKE_SOCK (1ull << 9)
#define SB_FS_MAKE_FIFO (1ull << 10)
#define SB_FS_MAKE_BLOCK (1ull << 11)
#define SB_FS_MAKE_SYM (1ull << 12)
#define SB_FS_REFER (1ull << 13)    /* ABI 2 */
#define SB_FS_TRUNCATE (1ull << 14) /* ABI 3 */
#define SB_FS_IOCTL_DEV (1ull << 15) /* ABI 5 */

#define SB_NET_BIND_TCP (1ull << 0)
#define SB_NET_CONNECT_TCP (1ull << 1)

#define SB_SCOPE_ABSTRACT_UNIX_SOCKET (1ull << 0)
#define SB_SCOPE_SIGNAL (1ull << 1)

/* ---- seccomp (Documentation/userspace-api/seccomp_filter.rst) ---- */

#ifndef SYS_seccomp
#define SYS_seccomp 317
#endif

#define SB_SECCOMP_SET_MODE_FILTER 1
#define SB_SECCOMP_GET_ACTION_AVAIL 2
#define SB_SECCOMP_FILTER_FLAG_NEW_LISTENER (1u << 3)

#define SB_SECCOMP_RET_KILL_PROCESS 0x80000000u
#define SB_SECCOMP_RET_ERRNO 0x00050000u
#define SB_SECCOMP_RET_USER_NOTIF 0x7fc00000u
#define SB_SECCOMP_RET_ALLOW 0x7fff0000u

/* struct seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6]; */
#define SB_DATA_NR 0u
#define SB_DATA_ARCH 4u
#define SB_DATA_ARG_LO(i) (16u + 8u * (unsigned)(i))
#define SB_DATA_ARG_HI(i) (20u + 8u * (unsigned)(i))

struct sb_sock_filter {
  uint16_t code;
  uint8_t jt;
  uint8_t jf;
  uint32_t k;
};

struct sb_sock_fprog {
  unsigned short len;
  struct sb_sock_filter* filter;
};

/* Classic BPF opcodes the filter needs. */
#define SB_BPF_LD_W_ABS 0x20 /* BPF_LD | BPF_W | BPF_ABS */
#define SB_BPF_ALU_AND_K 0x54 /* BPF_ALU | BPF_AND | BPF_K */
#define SB_BPF_JEQ_K 0x15     /* BPF_JMP | BPF_JEQ | BPF_K */
#define SB_BPF_JGE_K 0x35     /* BPF_JMP | BPF_JGE | BPF_K */
#define SB_BPF_JA 0x05        /* BPF_JMP | BPF_JA */
#define SB_BPF_RET_K 0x06     /* BPF_RET | BPF_K */

/* struct seccomp_notif and seccomp_notif_resp, for the audit mode's supervisor. */
struct sb_seccomp_notif {
  uint64_t id;
  uint32_t pid;
  uint32_t flags;
  int32_t nr;
  uint32_t arch;
  uint64_t instruction_pointer;
  uint64_t args[6];
};

struct sb_seccomp_notif_resp {
  uint64_t id;
  int64_t val;
  int32_t error;
  uint32_t flags;
};

#define SB_SECCOMP_USER_NOTIF_FLAG_CONTINUE 1u
/* _IOWR('!', 0, struct seccomp_notif) and _IOWR('!', 1, struct seccomp_notif_resp) */
#define SB_SECCOMP_IOCTL_NOTIF_RECV 0xc0502100ul
#define SB_SECCOMP_IOCTL_NOTIF_SEND 0xc0182101ul

#if defined(__x86_64__)
#define SB_AUDIT_ARCH 0xc000003eu /* EM_X86_64, 64-bit, little-endian */
#define SB_X32_SYSCALL_BIT 0x40000000u
#elif defined(__aarch64__)
#define SB_AUDIT_ARCH 0xc00000b7u /* EM_AARCH64, 64-bit, little-endian */
#endif

/* ---- capabilities ---- */

#define SB_CAPABILITY_VERSION_3 0x20080522u

struct sb_cap_header {
  uint32_t version;
  int pid;
};

struct sb_cap_data {
  uint32_t effective;
  uint32_t permitted;
  uint32_t inheritable;
};

#endif

/*
 * The system-call policy of the sandbox as one table of refusals (sandbox_policy.c), and the two back-ends that
 * turn it into a seccomp filter: libseccomp when the host was built with it (sandbox_libseccomp.c), else the
 * built-in BPF writer (sandbox_bpf.c). Both read the same rows, so they refuse the same calls.
 *
 * Every system call not refused here is allowed. A refused call fails with its row's errno (EPERM; ENOSYS for
 * clone3, so the C library falls back to clone, whose flags a filter can read). A call made through another
 * architecture's system-call table (x32, int 0x80) kills the process: the numbers of this table mean other calls
 * there, and no program built for this architecture makes them.
 */
#ifndef ENTROPIC_HOST_SANDBOX_POLICY_H
#define ENTROPIC_HOST_SANDBOX_POLICY_H

#include <stdint.h>

#include "sandbox_spec.h"

typedef enum {
  SB_TEST_ALWAYS,    /* refused whatever the arguments */
  SB_TEST_EQ,        /* refused when (arg & mask) == values[0] (the low 32 bits of the argument) */
  SB_TEST_NOT_IN,    /* refused unless (arg & mask) is one of values[] (the low 32 bits) */
  SB_TEST_NONZERO64, /* refused when the whole 64-bit argument (a pointer) is not NULL */
} sb_test_t;

#define SB_RULE_VALUES 4

typedef struct {
  int nr;
  const char* name;
  sb_test_t test;
  unsigned arg;
  uint32_t mask;
  uint32_t values[SB_RULE_VALUES];
  int value_count;
  int error; /* the errno a refused call gets */
} sb_rule_t;

#define SB_MAX_RULES 96

/* The refusals `spec` asks for, in `rules`; how many. */
int sb_policy(const sb_spec_t* spec, sb_rule_t* rules, int max);

/* The name of system call `nr` in the policy table ("syscall" when it has none). */
const char* sb_policy_name(int nr);

/* Loads the filter: each rule's errno, or (audit) a notification to the listener whose descriptor goes in
 * *listener; clone3's ENOSYS stays in both. */
int sb_filter_load(const sb_rule_t* rules, int count, int audit, int* listener, sb_why_t* why);

/* The back-end's name, for the probe. */
const char* sb_filter_backend(void);

#endif

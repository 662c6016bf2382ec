/*
 * The libseccomp back-end of the policy table (sandbox_policy.h), used when the host is built with libseccomp
 * (ENTROPIC_HAVE_LIBSECCOMP; scripts/abi-dirs.mjs decides): on architectures the built-in writer (sandbox_bpf.c)
 * does not know, or when ENTROPIC_SECCOMP=libseccomp asks for it. On x86-64 it builds the same refusals in
 * 1.2 to 14 ms per host start where the built-in writer takes 0.3 ms (loader README, "The sandbox").
 *
 * A libseccomp rule compares each argument once, so "not one of these values" becomes one rule per refused value
 * (or per bit of a flag mask) and a last rule for everything above the listed range.
 */
#ifdef ENTROPIC_HAVE_LIBSECCOMP

#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>

#include "sandbox_policy.h"

static int rule(scmp_filter_ctx ctx, uint32_t action, const sb_rule_t* r, int count, const struct scmp_arg_cmp* cmp) {
  return seccomp_rule_add_exact_array(ctx, action, r->nr, (unsigned)count, cmp);
}

/* Refused unless (arg & mask) is one of r->values: one rule per value that is refused. */
static int add_not_in(scmp_filter_ctx ctx, uint32_t action, const sb_rule_t* r) {
  int rc = 0;
  if (r->value_count == 1 && r->values[0] == 0) { /* any of the mask's bits set */
    for (int bit = 0; bit < 32 && rc == 0; bit++) {
      uint32_t one = 1u << bit;
      if (!(r->mask & one)) continue;
      struct scmp_arg_cmp cmp = SCMP_CMP(r->arg, SCMP_CMP_MASKED_EQ, one, one);
      rc = rule(ctx, action, r, 1, &cmp);
    }
    return rc;
  }
  uint32_t top = 0;
  for (int i = 0; i < r->value_count; i++)
    if (r->values[i] > top) top = r->values[i];
  if (r->mask != 0xffffffffu && r->mask < 0x100u) top = r->mask; /* a small field: every value of it */
  if (top > 64) return -EINVAL;
  for (uint32_t v = 0; v <= top && rc == 0; v++) {
    int listed = (v & r->mask) != v;
    for (int i = 0; i < r->value_count; i++) listed |= r->values[i] == v;
    if (listed) continue;
    struct scmp_arg_cmp cmp = SCMP_CMP(r->arg, SCMP_CMP_MASKED_EQ, r->mask, v);
    rc = rule(ctx, action, r, 1, &cmp);
  }
  if (rc == 0 && r->mask == 0xffffffffu) {
    struct scmp_arg_cmp above = SCMP_CMP(r->arg, SCMP_CMP_GT, top);
    rc = rule(ctx, action, r, 1, &above);
  }
  return rc;
}

static int add_rule(scmp_filter_ctx ctx, uint32_t action, const sb_rule_t* r) {
  struct scmp_arg_cmp cmp;
  switch (r->test) {
    case SB_TEST_ALWAYS:
      return rule(ctx, action, r, 0, NULL);
    case SB_TEST_EQ:
      cmp = (struct scmp_arg_cmp)SCMP_CMP(r->arg, SCMP_CMP_MASKED_EQ, r->mask, r->values[0]);
      return rule(ctx, action, r, 1, &cmp);
    case SB_TEST_NOT_IN:
      return add_not_in(ctx, action, r);
    case SB_TEST_NONZERO64:
      cmp = (struct scmp_arg_cmp)SCMP_CMP(r->arg, SCMP_CMP_NE, 0);
      return rule(ctx, action, r, 1, &cmp);
  }
  return -EINVAL;
}

int sb_filter_load(const sb_rule_t* rules, int count, int audit, int* listener, sb_why_t* why) {
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (ctx == NULL) return sb_fail(why, "seccomp_init failed");
  int rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
  const char* failed = NULL;
  for (int i = 0; i < count && rc == 0; i++) {
    const sb_rule_t* r = &rules[i];
    uint32_t action = audit && r->error != ENOSYS ? SCMP_ACT_NOTIFY : SCMP_ACT_ERRNO((uint32_t)r->error);
    rc = add_rule(ctx, action, r);
    if (rc != 0) failed = r->name;
  }
  if (rc == 0) rc = seccomp_load(ctx);
  if (rc == 0 && audit) {
    *listener = seccomp_notify_fd(ctx);
    if (*listener < 0) rc = *listener;
  }
  seccomp_release(ctx);
  if (rc == 0) return 0;
  if (failed != NULL) return sb_fail(why, "libseccomp refused the rule for %s: %s", failed, strerror(-rc));
  return sb_fail(why, "loading the seccomp filter with libseccomp: %s", strerror(-rc));
}

const char* sb_filter_backend(void) {
  static char name[48];
  const struct scmp_version* v = seccomp_version();
  snprintf(name, sizeof name, "libseccomp %u.%u.%u", v->major, v->minor, v->micro);
  return name;
}

#endif

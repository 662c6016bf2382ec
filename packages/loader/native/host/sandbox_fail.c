/* The two helpers every sandbox part shares: writing why a step failed, and the test switch that makes a part
 * look missing (ENTROPIC_SANDBOX_SIMULATE_MISSING). Kept apart so the parts and sandbox.c call down, never across. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandbox_spec.h"

int sb_fail(sb_why_t* why, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why->text, sizeof why->text, fmt, ap);
  va_end(ap);
  return -1;
}

int sb_simulated_missing(const char* part) {
  const char* list = getenv("ENTROPIC_SANDBOX_SIMULATE_MISSING");
  if (list == NULL) return 0;
  size_t len = strlen(part);
  for (const char* at = list; (at = strstr(at, part)) != NULL; at += len) {
    int starts = at == list || at[-1] == ',';
    int ends = at[len] == '\0' || at[len] == ',';
    if (starts && ends) return 1;
  }
  return 0;
}

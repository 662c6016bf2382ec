/* Staying awake for the next request after lone calls (see spin.h). Valid C and C++. */
#include "spin.h"

#include <sched.h>
#include <stdlib.h>
#include <time.h>

#define SPIN_DEFAULT_US 150L
#define SPIN_MAX_US 10000L
#define SPIN_MAX_SKIP 256u

long wire_spin_window_ns(void) {
  const char* text = getenv("ENTROPIC_HOST_SPIN_US");
  long micros = SPIN_DEFAULT_US;
  if (text != NULL && *text != '\0') {
    char* end = NULL;
    long value = strtol(text, &end, 10);
    if (*end == '\0' && value >= 0) micros = value > SPIN_MAX_US ? SPIN_MAX_US : value;
  }
  return micros * 1000L;
}

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int wire_spin(wire_spin_t* spin, long window_ns, int (*ready)(void* arg), void* arg) {
  if (window_ns <= 0) return 0;
  if (spin->skip > 0) {
    spin->skip--;
    return 0;
  }
  long long until = now_ns() + window_ns;
  do {
    if (ready(arg)) {
      spin->backoff = 1;
      return 1;
    }
    sched_yield();
  } while (now_ns() < until);
  spin->skip = spin->backoff ? spin->backoff : 1;
  spin->backoff = spin->skip * 2 > SPIN_MAX_SKIP ? SPIN_MAX_SKIP : spin->skip * 2;
  return 0;
}

/*
 * Staying awake for the next request after lone calls, at both ends of the wire (the host process and the
 * in-process instance thread). When the loader sends a burst with at most two calls in flight it ends it with the
 * spin hint (S0, wire.h): its caller waits on each answer, so the next request follows soon, and waking a
 * sleeping process or thread costs more than a fast call takes. After answering such a burst the instance
 * looks for the next request for a short window, yielding the core between looks, before it sleeps. After a
 * window that found nothing the next ones are skipped (1, then 2, 4... up to 256 after each further miss in a
 * row), so a caller slower than the window costs it only now and then.
 */
#ifndef ENTROPIC_WIRE_SPIN_H
#define ENTROPIC_WIRE_SPIN_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  unsigned skip;    /* windows left to skip after one that found nothing */
  unsigned backoff; /* the skip after the next miss */
} wire_spin_t;

/* The window: ENTROPIC_HOST_SPIN_US microseconds (0 turns it off, at most 10000), else 150; in nanoseconds. */
long wire_spin_window_ns(void);

/* Looks for `ready(arg) != 0` for up to `window_ns`, unless earlier misses say to skip this window. 1 when it
 * saw the next request coming, 0 otherwise (the caller then sleeps as usual). */
int wire_spin(wire_spin_t* spin, long window_ns, int (*ready)(void* arg), void* arg);

#ifdef __cplusplus
}
#endif

#endif

/*
 * A one-shot alarm one thread sleeps on and another sets, without waking the sleeper to do so: on Linux a
 * timerfd (setting it is one system call, and no thread runs until it rings); elsewhere a condition variable.
 * The flusher's watchdog sleeps on it, so a call that ends in time costs no thread wake-up.
 */
#ifndef ENTROPIC_HOST_ALARM_H
#define ENTROPIC_HOST_ALARM_H

#include <pthread.h>

typedef struct {
#ifdef __linux__
  int fd;
#else
  pthread_mutex_t lock;
  pthread_cond_t changed;
  long long deadline_ns; /* 0: not set */
  int rung;
#endif
} host_alarm_t;

/* 0 on success. */
int host_alarm_open(host_alarm_t* alarm);
void host_alarm_close(host_alarm_t* alarm);
/* Rings `ns` nanoseconds from now (replacing an earlier setting); 0 takes the setting back. */
void host_alarm_set(host_alarm_t* alarm, long ns);
/* Rings now. */
void host_alarm_ring(host_alarm_t* alarm);
/* Sleeps until the alarm rings. */
void host_alarm_wait(host_alarm_t* alarm);

#endif

/* The watchdog's alarm (see alarm.h). */
#include "alarm.h"

#include <errno.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/timerfd.h>

int host_alarm_open(host_alarm_t* alarm) {
  alarm->fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
  return alarm->fd < 0 ? -1 : 0;
}

void host_alarm_close(host_alarm_t* alarm) {
  if (alarm->fd >= 0) close(alarm->fd);
  alarm->fd = -1;
}

void host_alarm_set(host_alarm_t* alarm, long ns) {
  struct itimerspec when = {{0, 0}, {ns / 1000000000L, ns % 1000000000L}};
  timerfd_settime(alarm->fd, 0, &when, NULL);
}

void host_alarm_ring(host_alarm_t* alarm) { host_alarm_set(alarm, 1); }

void host_alarm_wait(host_alarm_t* alarm) {
  uint64_t rings;
  while (read(alarm->fd, &rings, sizeof rings) < 0 && errno == EINTR) {
  }
}

#else

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int host_alarm_open(host_alarm_t* alarm) {
  alarm->deadline_ns = 0;
  alarm->rung = 0;
  if (pthread_mutex_init(&alarm->lock, NULL) != 0) return -1;
  return pthread_cond_init(&alarm->changed, NULL) == 0 ? 0 : -1;
}

void host_alarm_close(host_alarm_t* alarm) {
  pthread_cond_destroy(&alarm->changed);
  pthread_mutex_destroy(&alarm->lock);
}

void host_alarm_set(host_alarm_t* alarm, long ns) {
  pthread_mutex_lock(&alarm->lock);
  alarm->deadline_ns = ns == 0 ? 0 : now_ns() + ns;
  pthread_cond_signal(&alarm->changed);
  pthread_mutex_unlock(&alarm->lock);
}

void host_alarm_ring(host_alarm_t* alarm) {
  pthread_mutex_lock(&alarm->lock);
  alarm->rung = 1;
  pthread_cond_signal(&alarm->changed);
  pthread_mutex_unlock(&alarm->lock);
}

void host_alarm_wait(host_alarm_t* alarm) {
  pthread_mutex_lock(&alarm->lock);
  for (;;) {
    if (alarm->rung) break;
    if (alarm->deadline_ns == 0) {
      pthread_cond_wait(&alarm->changed, &alarm->lock);
      continue;
    }
    if (now_ns() >= alarm->deadline_ns) break;
    struct timespec until = {(time_t)(alarm->deadline_ns / 1000000000LL), (long)(alarm->deadline_ns % 1000000000LL)};
    pthread_cond_timedwait(&alarm->changed, &alarm->lock, &until);
  }
  alarm->rung = 0;
  alarm->deadline_ns = 0;
  pthread_mutex_unlock(&alarm->lock);
}

#endif

/* Writes batched answers without letting a slow call hold others back (see flusher.h). */
#include "flusher.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "alarm.h"

#define SLOW_CALL_NS 1000000L

static channel_t* channel;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t watchdog;
static host_alarm_t alarm_clock;
static volatile int running;
static int armed; /* the alarm is set (guarded by lock) */
static volatile sig_atomic_t in_call;

/* Sets the alarm unless it is set: buffered answers go out within SLOW_CALL_NS. Called with the lock held. */
static void arm(void) {
  if (armed) return;
  armed = 1;
  host_alarm_set(&alarm_clock, SLOW_CALL_NS);
}

/* Sleeps until the alarm rings; then, if the main thread is inside the plugin, writes what is buffered. The
 * lock is only taken after a ring, so calls that end in time never meet this thread. */
static void* watch(void* unused) {
  (void)unused;
  while (running) {
    host_alarm_wait(&alarm_clock);
    if (!running) break;
    pthread_mutex_lock(&lock);
    /* Holding the lock means the main thread is inside the plugin (or between two calls, or stopping). */
    armed = 0;
    if (running && in_call && channel_pending(channel) > 0) channel_flush(channel);
    pthread_mutex_unlock(&lock);
  }
  return NULL;
}

/* Writes what is buffered, from a dying process. Waits (briefly) for a watchdog write in progress. */
static void flush_before_death(void) {
  if (!in_call || channel == NULL) return;
  struct timespec pause = {0, 1000000L};
  for (int tries = 0; tries < 200; tries++) {
    if (pthread_mutex_trylock(&lock) == 0) {
      channel_flush(channel);
      return;
    }
    nanosleep(&pause, NULL);
  }
}

static void on_fatal(int sig) {
  flush_before_death();
  signal(sig, SIG_DFL);
  raise(sig);
}

int flusher_start(channel_t* ch) {
  channel = ch;
  pthread_mutex_lock(&lock);
  if (host_alarm_open(&alarm_clock) != 0) return -1;
  running = 1;
  if (pthread_create(&watchdog, NULL, watch, NULL) != 0) {
    running = 0;
    host_alarm_close(&alarm_clock);
    return -1;
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_fatal;
  sa.sa_flags = SA_RESETHAND | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
  for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) sigaction(fatal[i], &sa, NULL);
  atexit(flush_before_death);
  return 0;
}

void flusher_enter(void) {
  in_call = 1;
  if (channel_pending(channel) > 0) arm();
  pthread_mutex_unlock(&lock);
}

void flusher_leave(void) {
  pthread_mutex_lock(&lock);
  in_call = 0;
}

void flusher_written(void) {
  if (!armed) return;
  armed = 0;
  host_alarm_set(&alarm_clock, 0);
}

void flusher_post(const wire_buf_t* frames) {
  pthread_mutex_lock(&lock);
  if (wire_reserve(&channel->out, frames->len) == 0) {
    memcpy(channel->out.data + channel->out.len, frames->data, frames->len);
    channel->out.len += frames->len;
  }
  /* Written within a millisecond by the watchdog, or sooner by the main thread when the call ends. */
  arm();
  pthread_mutex_unlock(&lock);
}

void flusher_stop(void) {
  if (!running) return;
  running = 0;
  host_alarm_ring(&alarm_clock);
  pthread_mutex_unlock(&lock);
  pthread_join(watchdog, NULL);
  pthread_mutex_lock(&lock);
  host_alarm_close(&alarm_clock);
}

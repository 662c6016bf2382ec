/* Writes batched answers without letting a slow call hold others back (see flusher.h). */
#include "flusher.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SLOW_CALL_NS 1000000L

static channel_t* channel;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static pthread_t watchdog;
static int running;
static int watching;            /* the watchdog is timing calls (guarded by lock) */
static unsigned long call_seq;  /* bumped at each flusher_enter (guarded by lock) */
static volatile sig_atomic_t in_call;

static void* watch(void* unused) {
  (void)unused;
  pthread_mutex_lock(&lock);
  while (running) {
    if (!in_call || channel_pending(channel) == 0) {
      watching = 0;
      pthread_cond_wait(&wake, &lock);
      continue;
    }
    watching = 1;
    unsigned long seen = call_seq;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += SLOW_CALL_NS;
    if (until.tv_nsec >= 1000000000L) {
      until.tv_sec++;
      until.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&wake, &lock, &until);
    /* Holding the lock means the main thread is inside the plugin or waiting for us. */
    if (running && in_call && call_seq == seen && channel_pending(channel) > 0) channel_flush(channel);
  }
  pthread_mutex_unlock(&lock);
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
  running = 1;
  if (pthread_create(&watchdog, NULL, watch, NULL) != 0) {
    running = 0;
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
  call_seq++;
  in_call = 1;
  if (!watching && channel_pending(channel) > 0) pthread_cond_signal(&wake);
  pthread_mutex_unlock(&lock);
}

void flusher_leave(void) {
  pthread_mutex_lock(&lock);
  in_call = 0;
}

void flusher_post(const wire_buf_t* frames) {
  pthread_mutex_lock(&lock);
  if (wire_reserve(&channel->out, frames->len) == 0) {
    memcpy(channel->out.data + channel->out.len, frames->data, frames->len);
    channel->out.len += frames->len;
  }
  /* A watchdog waiting for work is woken to time the running call: it writes these within a millisecond. */
  if (!watching) pthread_cond_signal(&wake);
  pthread_mutex_unlock(&lock);
}

void flusher_stop(void) {
  if (!running) return;
  running = 0;
  pthread_cond_signal(&wake);
  pthread_mutex_unlock(&lock);
  pthread_join(watchdog, NULL);
  pthread_mutex_lock(&lock);
}

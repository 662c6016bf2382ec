/* Writes batched answers without letting a slow call hold others back (see flusher.h). */
#include "flusher.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The watchdog's look-out period: a call still running after a whole tick with answers waiting gets them written. */
#define TICK_NS 1000000L
/* Ticks without a call before the watchdog sleeps until a call wakes it. */
#define IDLE_TICKS 2

static channel_t* channel;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t watchdog;
static atomic_int running;
static atomic_ulong call_seq;   /* bumped at each flusher_enter */
static atomic_int in_call;      /* also read by the fatal-signal handler */
/* The watchdog sleeping until woken (parked), and what wakes it. */
static atomic_int parked;
static pthread_mutex_t park_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t park_cond = PTHREAD_COND_INITIALIZER;

static void unpark(void) {
  pthread_mutex_lock(&park_lock);
  atomic_store(&parked, 0);
  pthread_cond_signal(&park_cond);
  pthread_mutex_unlock(&park_lock);
}

/* Sleeps until a call with answers waiting (or the stop) unparks it. */
static void park(void) {
  pthread_mutex_lock(&park_lock);
  while (atomic_load(&parked) && atomic_load(&running)) pthread_cond_wait(&park_cond, &park_lock);
  pthread_mutex_unlock(&park_lock);
}

/* Writes the buffered answers if call `seen` is still running (the lock is free while the main thread is inside
 * the plugin; taking it keeps the main thread from touching the buffer until the write is done). */
static void flush_if_stuck(unsigned long seen) {
  pthread_mutex_lock(&lock);
  if (atomic_load(&running) && atomic_load(&in_call) && atomic_load(&call_seq) == seen &&
      channel_pending(channel) > 0) {
    channel_flush(channel);
  }
  pthread_mutex_unlock(&lock);
}

/* Ticks while calls come, looking for one that runs a whole tick with answers waiting; parks after IDLE_TICKS
 * ticks without a call. It takes the lock only to write. A busy pipeline costs it one wake-up per tick and the
 * main thread nothing: waking it at every batch of answers (with its lock handed back and forth) cost a thread
 * switch per batch, and on a loaded machine the main thread could wait for the watchdog to get a core. */
static void* watch(void* unused) {
  (void)unused;
  unsigned long seen = atomic_load(&call_seq);
  int idle = IDLE_TICKS; /* nothing to watch before the first call with answers waiting */
  while (atomic_load(&running)) {
    if (idle >= IDLE_TICKS) {
      atomic_store(&parked, 1);
      /* A call that began after the last look and saw the watchdog awake did not wake it: look once more. */
      if (atomic_load(&call_seq) == seen && !atomic_load(&in_call)) park();
      atomic_store(&parked, 0);
      seen = atomic_load(&call_seq);
      idle = 0;
    }
    struct timespec tick = {0, TICK_NS};
    nanosleep(&tick, NULL);
    unsigned long now = atomic_load(&call_seq);
    if (now != seen) {
      seen = now;
      idle = 0;
    } else if (atomic_load(&in_call)) {
      flush_if_stuck(seen);
    } else {
      idle++;
    }
  }
  return NULL;
}

/* Writes what is buffered, from a dying process. Waits (briefly) for a watchdog write in progress. */
static void flush_before_death(void) {
  if (!atomic_load(&in_call) || channel == NULL) return;
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
  atomic_store(&running, 1);
  if (pthread_create(&watchdog, NULL, watch, NULL) != 0) {
    atomic_store(&running, 0);
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
  atomic_fetch_add(&call_seq, 1);
  atomic_store(&in_call, 1);
  /* Only a parked watchdog needs a wake-up, and only when answers wait behind this call. */
  if (channel_pending(channel) > 0 && atomic_load(&parked)) unpark();
  pthread_mutex_unlock(&lock);
}

void flusher_leave(void) {
  pthread_mutex_lock(&lock);
  atomic_store(&in_call, 0);
}

void flusher_stop(void) {
  if (!atomic_load(&running)) return;
  atomic_store(&running, 0);
  unpark();
  pthread_mutex_unlock(&lock);
  pthread_join(watchdog, NULL);
  pthread_mutex_lock(&lock);
}

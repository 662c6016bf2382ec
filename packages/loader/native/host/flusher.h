/*
 * Answers are written in batches (one write for all the requests read together), yet none may wait behind a
 * call that is slow, hangs or crashes. The flusher guarantees that:
 *
 * - the main thread holds `lock` except while it is inside the plugin (flusher_enter/flusher_leave);
 * - when a call starts while answers wait (or a running call posts frames), an alarm is set for a millisecond
 *   later (alarm.h: setting it wakes no thread); the main thread takes it back when it writes the answers
 *   itself, and if it rings first a watchdog thread writes them while the call goes on;
 * - a fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT) or exit() inside the plugin writes them first,
 *   then the process dies as it would have.
 */
#ifndef ENTROPIC_HOST_FLUSHER_H
#define ENTROPIC_HOST_FLUSHER_H

#include "channel.h"

/* Starts the watchdog and installs the handlers; the caller then holds the lock. 0 on success. */
int flusher_start(channel_t* ch);
/* Before a call into the plugin: releases the lock. */
void flusher_enter(void);
/* After the call: takes the lock back. */
void flusher_leave(void);
/* After the main thread wrote the buffered answers (lock held): takes back the alarm, if set. */
void flusher_written(void);
/* While a call runs (from the thread inside the plugin, or one it started): appends `frames` to the buffered
 * answers, which the watchdog writes within about a millisecond. */
void flusher_post(const wire_buf_t* frames);
/* Stops the watchdog (at shutdown, lock held by the caller). */
void flusher_stop(void);

#endif

/* The host's end of the cancel pipe (../wire/wire.h): which calls of a plugin with the plugin context the loader
 * cancelled. The running call is flagged at once; ids of calls not started yet wait in a small ring until their
 * call comes up, and that call is then not run. */
#ifndef ENTROPIC_HOST_CANCELS_H
#define ENTROPIC_HOST_CANCELS_H

#include <stdint.h>

#include "context.h"

/* Takes the pipe at descriptor `fd_text` out of the plugin's reach (a private, close-on-exec, non-blocking copy).
 * 0, or -1 when it is not an open descriptor. Without it nothing is ever cancelled. */
int cancels_open(const char* fd_text);
void cancels_close(void);

/* Reads every cancellation waiting on the pipe, never blocking; `running` (a wire_call_t*) is flagged when it
 * is named. The poll of the running call's sink (context.h): called with that call's lock held, or from the
 * main thread between calls. */
void cancels_read(void* running);

/* True (once) when call `id` was cancelled before it started. */
int cancels_before(uint32_t id, wire_call_t* running);

#endif

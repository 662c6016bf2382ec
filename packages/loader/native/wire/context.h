/*
 * The plugin context of one call (<entropic/interfaces/i_mcp_context.h>), the same in the host process and in the
 * in-process addon. The loader sends a call for a plugin that defines entropic_mcp_server_execute_with_context as
 * an `F` request (wire.h) whose third part is the caller's metadata; the instance fills an entropic_call_context_t
 * from it, and what the plugin says through the context leaves as frames with the call's id:
 *
 *   WIRE_PROGRESS    f64 done, f64 total (negative: unknown), then the message (empty: none). Reports closer
 *                    together than WIRE_PROGRESS_INTERVAL_NS are merged: the latest waits and goes out at the next
 *                    report past the interval, or just before the answer.
 *   WIRE_LOG         u8 level, the logger (empty: the plugin's name), NUL, the data as JSON text. At most the
 *                    call's log limit (metadata `ll`) leave per WIRE_LOG_WINDOW_NS; the messages beyond are
 *                    dropped and counted, and one warning says how many (data {"dropped": N, "limit": L,
 *                    "message": ...}) when the next window opens or just before the answer.
 *   WIRE_STRUCTURED  the structured result's JSON text; sent once, just before the answer, when the plugin set one.
 *
 * Cancellation comes in the other way: whoever serves the instance calls wire_call_cancel (the addon from the JS
 * thread; the host when its cancel pipe names the call), and the plugin reads the flag through cancelled().
 *
 * Metadata (the F request's third part) is `key US value RS ...` (US = 0x1f, RS = 0x1e), keys `sub` (subject),
 * `scp` (scopes), `pv` (protocol version), `rid` (request id as JSON), `h:<lower-case name>` (an allowed header),
 * `ll` (log messages a call may send per WIRE_LOG_WINDOW_NS, decimal; absent or 0: no limit).
 * The loader removes control characters from values, so neither separator can appear in one.
 */
#ifndef ENTROPIC_WIRE_CONTEXT_H
#define ENTROPIC_WIRE_CONTEXT_H

#include <entropic/interfaces/i_mcp_context.h>
#include <pthread.h>
#include <stdint.h>

#include "wire.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Minimum time between two progress frames of one call. */
#define WIRE_PROGRESS_INTERVAL_NS 10000000L
/* The window of the log limit: a call sends at most its limit of log frames in each (one second). */
#define WIRE_LOG_WINDOW_NS 1000000000LL

/* Where a call's frames go while it runs: `emit` appends them to what leaves next (the caller makes them leave
 * soon) and runs with the sink's own lock taken; `poll` (may be NULL) looks for a cancellation that came in. */
typedef struct {
  void (*emit)(void* arg, const wire_buf_t* frames);
  void (*poll)(void* arg);
  void* arg;
} wire_sink_t;

typedef struct {
  uint32_t id;   /* the running call (0: none; read with __atomic builtins) */
  int cancelled; /* read and written with __atomic builtins: set from another thread */
  wire_sink_t sink;
  pthread_mutex_t lock; /* guards what follows: the plugin may call back from several threads */
  int64_t last_progress_ns; /* when the last progress frame left (0: none yet) */
  int64_t last_poll_ns;     /* when the sink was last asked for a cancellation (0: not yet) */
  int progress_waiting;     /* a merged report waits in `waiting` */
  long log_limit;           /* log frames allowed per window (0: no limit) */
  int64_t log_window_ns;    /* when the current window opened (0: no log yet) */
  long log_sent;            /* log frames sent in the current window */
  long log_dropped;         /* log messages dropped and not yet reported */
  wire_buf_t waiting;       /* the frame of that report */
  wire_buf_t scratch;       /* frames being built */
  char* structured;         /* the structured result set so far (malloc'd), or NULL */
  char* meta;               /* the metadata, copied, separators turned into NULs */
  size_t meta_len;
  entropic_call_context_t context;
} wire_call_t;

/* Once, before the first call: zeroes the call and makes its lock. */
void wire_call_init(wire_call_t* call);
/* After the last call: frees what the call kept. */
void wire_call_destroy(wire_call_t* call);

/* Before the plugin runs call `id` (after wire_call_arm): fills the context from `meta` (the F request's third part; NULL or empty for
 * none). Returns the context to hand the plugin, or NULL when memory ran out (the plugin then gets no context). */
const entropic_call_context_t* wire_call_begin(wire_call_t* call, uint32_t id, const char* meta, const wire_sink_t* sink);
/* After the plugin returned: appends the merged progress report still waiting and the structured result to
 * `out` (they go before the answer), then forgets the call. */
void wire_call_end(wire_call_t* call, wire_buf_t* out);

/* Clears the cancellation flag before the next call starts (cancellations of an earlier call do not carry over). */
void wire_call_arm(wire_call_t* call);
/* Flags the call as cancelled (any thread). */
void wire_call_cancel(wire_call_t* call);
/* True once the call was cancelled. */
int wire_call_cancelled(wire_call_t* call);

/* Monotonic clock in nanoseconds. */
int64_t wire_now_ns(void);

#ifdef __cplusplus
}
#endif

#endif

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
 * Each call gets a context of its own (wire_slot_t): a plugin thread that goes on calling back through the context
 * of a call that returned reaches nothing (cancelled() answers 1, the others INVALID_STATE or NULL), and never the
 * call running then, which may be another caller's.
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

/* How many contexts a call must wait behind before it may reuse one whose call returned (see wire_slot_t). */
#define WIRE_CONTEXT_QUARANTINE 64
/* A context through which a late callback came is reused only after this long without another. */
#define WIRE_CONTEXT_QUIET_NS 1000000000LL
/* At most this many contexts per instance; past it, while every free one is still being called late, a call runs
 * without a context (the plugin gets NULL, as when memory runs out). */
#define WIRE_CONTEXT_MAX 1024

struct wire_call;

/* One context handed to the plugin, and what ties it to its call. It is bound to one call at a time: `host` is the
 * slot itself, and a callback acts only while its slot is the running call's (`current`); once that call returned,
 * its callbacks do nothing. The plugin may keep the pointer: a slot is freed only with its instance
 * (wire_call_destroy), never between calls, and is handed to another call only after WIRE_CONTEXT_QUARANTINE later
 * calls and, when a late callback came through it, WIRE_CONTEXT_QUIET_NS without another (wire_call_begin). */
typedef struct wire_slot {
  entropic_call_context_t context; /* what the plugin sees; string members read NULL once the call returned */
  struct wire_call* owner;
  int64_t late_ns;        /* when the last late callback came through it (0: none); under owner->lock */
  char* meta;             /* the caller's metadata, separators turned into NULs; the string members point here */
  size_t meta_len;
  size_t meta_cap;
  struct wire_slot* next; /* in the owner's queue of free slots, oldest first */
} wire_slot_t;

typedef struct wire_call {
  uint32_t id;   /* the running call (0: none; read with __atomic builtins) */
  int cancelled; /* read and written with __atomic builtins: set from another thread */
  wire_sink_t sink;
  pthread_mutex_t lock; /* guards what follows: the plugin may call back from several threads */
  wire_slot_t* current;     /* the running call's context (NULL: none); written under lock with __atomic builtins */
  int sink_polls;           /* the sink has a poll (read with __atomic builtins) */
  wire_slot_t* free_first;  /* contexts whose call returned, oldest first */
  wire_slot_t* free_last;
  size_t free_count;
  size_t slot_count;        /* every context this call made, free or not */
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
} wire_call_t;

/* Once, before the first call: zeroes the call and makes its lock. */
void wire_call_init(wire_call_t* call);
/* After the last call: frees what the call kept. */
void wire_call_destroy(wire_call_t* call);

/* Before the plugin runs call `id` (after wire_call_arm): fills a context of its own from `meta` (the F request's third
 * part; NULL or empty for none). Returns the context to hand the plugin, or NULL when memory ran out or every context
 * is still being called late (WIRE_CONTEXT_MAX): the plugin then gets no context. */
const entropic_call_context_t* wire_call_begin(wire_call_t* call, uint32_t id, const char* meta, const wire_sink_t* sink);
/* After the plugin returned: appends the merged progress report still waiting and the structured result to
 * `out` (they go before the answer), then forgets the call: its context's callbacks do nothing from here on. */
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

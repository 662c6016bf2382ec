/* The plugin context of one call: the callbacks a plugin reaches and the frames they make (see context.h). */
#include "context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "context_slots.h"

/* How often cancelled() and progress() look for a cancellation that came in (the host reads a pipe). */
#define POLL_INTERVAL_NS 1000000L
#define LOG_LEVEL_MAX ENTROPIC_LOG_EMERGENCY

int64_t wire_now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

void wire_call_init(wire_call_t* call) {
  memset(call, 0, sizeof *call);
  pthread_mutex_init(&call->lock, NULL);
}

void wire_call_destroy(wire_call_t* call) {
  wire_slot_free_all(call);
  free(call->structured);
  wire_buf_free(&call->waiting);
  wire_buf_free(&call->scratch);
  pthread_mutex_destroy(&call->lock);
}

void wire_call_arm(wire_call_t* call) { __atomic_store_n(&call->cancelled, 0, __ATOMIC_RELEASE); }

void wire_call_cancel(wire_call_t* call) { __atomic_store_n(&call->cancelled, 1, __ATOMIC_RELEASE); }

int wire_call_cancelled(wire_call_t* call) { return __atomic_load_n(&call->cancelled, __ATOMIC_ACQUIRE); }

/* The call a callback is for, with its lock taken, while that call runs. NULL once it returned: the late callback
 * does nothing but mark the context, which then waits longer before another call gets it (context_slots.c). */
static wire_call_t* enter(void* host) {
  wire_slot_t* slot = (wire_slot_t*)host;
  if (slot == NULL) return NULL;
  wire_call_t* call = slot->owner;
  pthread_mutex_lock(&call->lock);
  if (call->current == slot) return call;
  slot->late_ns = wire_now_ns();
  pthread_mutex_unlock(&call->lock);
  return NULL;
}

/* Looks for a cancellation that came in, at most once per POLL_INTERVAL_NS (lock held). */
static void poll_locked(wire_call_t* call, int64_t now) {
  if (call->sink.poll == NULL || wire_call_cancelled(call)) return;
  if (call->last_poll_ns != 0 && now - call->last_poll_ns < POLL_INTERVAL_NS) return;
  call->last_poll_ns = now;
  call->sink.poll(call->sink.arg);
}

/* A call that returned is over: its context answers 1 (stop). Plugins poll this in loops: while the call runs
 * and there is nothing to poll (the addon), or once it is cancelled, the answer comes without the lock (should the
 * call return meanwhile, its thread is told 0 once more, and nothing else happens). */
static int on_cancelled(void* host) {
  wire_slot_t* slot = (wire_slot_t*)host;
  if (slot != NULL && __atomic_load_n(&slot->owner->current, __ATOMIC_ACQUIRE) == slot) {
    wire_call_t* live = slot->owner;
    if (wire_call_cancelled(live)) return 1;
    if (!__atomic_load_n(&live->sink_polls, __ATOMIC_RELAXED)) return 0;
  }
  wire_call_t* call = enter(host);
  if (call == NULL) return 1;
  if (call->sink.poll != NULL) poll_locked(call, wire_now_ns());
  int cancelled = wire_call_cancelled(call);
  pthread_mutex_unlock(&call->lock);
  return cancelled ? 1 : 0;
}

static void put_f64(char* p, double v) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  for (int i = 0; i < 8; i++) p[i] = (char)((bits >> (8 * i)) & 0xff);
}

static entropic_error_t on_progress(double done, double total, const char* message, void* host) {
  char numbers[16];
  put_f64(numbers, done);
  put_f64(numbers + 8, total);
  const void* parts[2] = {numbers, message != NULL ? message : ""};
  size_t lens[2] = {sizeof numbers, message != NULL ? strlen(message) : 0};
  entropic_error_t rc = ENTROPIC_OK;
  wire_call_t* call = enter(host);
  if (call == NULL) return ENTROPIC_ERROR_INVALID_STATE;
  int64_t now = wire_now_ns();
  poll_locked(call, now);
  call->scratch.len = 0;
  if (wire_put_parts(&call->scratch, call->id, WIRE_PROGRESS, parts, lens, 2) != 0) {
    rc = ENTROPIC_ERROR_OUT_OF_MEMORY;
  } else if (call->last_progress_ns == 0 || now - call->last_progress_ns >= WIRE_PROGRESS_INTERVAL_NS) {
    call->last_progress_ns = now;
    call->progress_waiting = 0;
    call->sink.emit(call->sink.arg, &call->scratch);
  } else {
    /* Too soon after the last one: this report waits, replacing any other that waited. */
    wire_buf_t swap = call->waiting;
    call->waiting = call->scratch;
    call->scratch = swap;
    call->progress_waiting = 1;
  }
  if (rc == ENTROPIC_OK && wire_call_cancelled(call)) rc = ENTROPIC_ERROR_CANCELLED;
  pthread_mutex_unlock(&call->lock);
  return rc;
}

/* Appends the warning that `call->log_dropped` messages were dropped to `out`, and forgets the count (lock held). */
static int put_dropped_locked(wire_call_t* call, wire_buf_t* out) {
  char head = (char)ENTROPIC_LOG_WARNING;
  char data[200];
  int n = snprintf(data, sizeof data,
                   "{\"dropped\":%ld,\"limit\":%ld,\"message\":\"%ld log messages of this call were dropped: "
                   "it may send %ld a second\"}",
                   call->log_dropped, call->log_limit, call->log_dropped, call->log_limit);
  if (n < 0 || (size_t)n >= sizeof data) n = 0;
  call->log_dropped = 0;
  const void* parts[4] = {&head, "", "", data};
  size_t lens[4] = {1, 0, 1, (size_t)n};
  return wire_put_parts(out, call->id, WIRE_LOG, parts, lens, 4);
}

/* Whether a log message may leave now under the call's limit; counts it as dropped when not (lock held). When a
 * window opens after drops, the warning about them leaves first. */
static int log_allowed_locked(wire_call_t* call, int64_t now) {
  if (call->log_limit <= 0) return 1;
  if (call->log_window_ns == 0 || now - call->log_window_ns >= WIRE_LOG_WINDOW_NS) {
    if (call->log_dropped > 0) {
      call->scratch.len = 0;
      if (put_dropped_locked(call, &call->scratch) == 0) call->sink.emit(call->sink.arg, &call->scratch);
    }
    call->log_window_ns = now;
    call->log_sent = 0;
  }
  if (call->log_sent >= call->log_limit) {
    call->log_dropped++;
    return 0;
  }
  call->log_sent++;
  return 1;
}

static entropic_error_t on_log(entropic_log_level_t level, const char* logger, const char* data_json, void* host) {
  wire_call_t* call = enter(host);
  if (call == NULL) return ENTROPIC_ERROR_INVALID_STATE;
  if (data_json == NULL || (int)level < 0 || (int)level > LOG_LEVEL_MAX) {
    pthread_mutex_unlock(&call->lock);
    return ENTROPIC_ERROR_INVALID_ARGUMENT;
  }
  char head = (char)level;
  const char* name = logger != NULL ? logger : "";
  entropic_error_t rc = ENTROPIC_OK;
  if (log_allowed_locked(call, wire_now_ns())) {
    const void* parts[4] = {&head, name, "", data_json};
    size_t lens[4] = {1, strlen(name), 1, strlen(data_json)};
    call->scratch.len = 0;
    if (wire_put_parts(&call->scratch, call->id, WIRE_LOG, parts, lens, 4) != 0) rc = ENTROPIC_ERROR_OUT_OF_MEMORY;
    else call->sink.emit(call->sink.arg, &call->scratch);
  }
  pthread_mutex_unlock(&call->lock);
  return rc;
}

static entropic_error_t on_set_structured(const char* json, void* host) {
  char* copy = NULL;
  if (json != NULL) {
    size_t len = strlen(json);
    copy = (char*)malloc(len + 1);
    if (copy == NULL) return ENTROPIC_ERROR_OUT_OF_MEMORY;
    memcpy(copy, json, len + 1);
  }
  wire_call_t* call = enter(host);
  if (call == NULL) {
    free(copy);
    return ENTROPIC_ERROR_INVALID_STATE;
  }
  free(call->structured);
  call->structured = copy;
  pthread_mutex_unlock(&call->lock);
  return ENTROPIC_OK;
}

/* The header a live call's caller sent, by name; NULL when it sent none, or once the call returned. The value
 * stays readable while the context waits to be reused (context_slots.c). */
static const char* on_header(const char* name, void* host) {
  wire_call_t* call = enter(host);
  if (call == NULL) return NULL;
  const char* value = name != NULL ? wire_slot_meta(call->current, "h:", name) : NULL;
  pthread_mutex_unlock(&call->lock);
  return value;
}

const entropic_call_context_t* wire_call_begin(wire_call_t* call, uint32_t id, const char* meta, const wire_sink_t* sink) {
  pthread_mutex_lock(&call->lock);
  call->sink = *sink;
  __atomic_store_n(&call->sink_polls, sink->poll != NULL, __ATOMIC_RELAXED);
  call->last_progress_ns = 0;
  call->last_poll_ns = 0;
  call->progress_waiting = 0;
  call->log_window_ns = 0;
  call->log_sent = 0;
  call->log_dropped = 0;
  free(call->structured);
  call->structured = NULL;
  if (call->current != NULL) wire_slot_retire(call, call->current); /* a call that never ended (not expected) */
  wire_slot_t* slot = wire_slot_take(call, wire_now_ns());
  if (slot != NULL && wire_slot_read_meta(slot, meta) != 0) {
    wire_slot_retire(call, slot);
    slot = NULL;
  }
  const char* limit = slot != NULL ? wire_slot_meta(slot, "", "ll") : NULL;
  call->log_limit = limit != NULL ? strtol(limit, NULL, 10) : 0;
  if (slot != NULL) {
    entropic_call_context_t* c = &slot->context;
    c->size = sizeof *c;
    c->host = slot;
    c->cancelled = on_cancelled;
    c->progress = on_progress;
    c->log = on_log;
    c->set_structured = on_set_structured;
    c->header = on_header;
    c->subject = wire_slot_meta(slot, "", "sub");
    c->scopes = wire_slot_meta(slot, "", "scp");
    c->protocol_version = wire_slot_meta(slot, "", "pv");
    c->request_id = wire_slot_meta(slot, "", "rid");
  }
  __atomic_store_n(&call->current, slot, __ATOMIC_RELEASE);
  __atomic_store_n(&call->id, slot != NULL ? id : 0u, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&call->lock);
  return slot != NULL ? &slot->context : NULL;
}

void wire_call_end(wire_call_t* call, wire_buf_t* out) {
  pthread_mutex_lock(&call->lock);
  uint32_t id = call->id;
  if (id != 0 && call->progress_waiting && call->waiting.len > 0 && wire_reserve(out, call->waiting.len) == 0) {
    memcpy(out->data + out->len, call->waiting.data, call->waiting.len);
    out->len += call->waiting.len;
  }
  if (id != 0 && call->log_dropped > 0) put_dropped_locked(call, out);
  if (id != 0 && call->structured != NULL) wire_put(out, id, WIRE_STRUCTURED, call->structured, strlen(call->structured), NULL, 0);
  free(call->structured);
  call->structured = NULL;
  call->progress_waiting = 0;
  /* From here on the context's callbacks do nothing: it is no longer the running call's. */
  if (call->current != NULL) wire_slot_retire(call, call->current);
  __atomic_store_n(&call->current, (wire_slot_t*)NULL, __ATOMIC_RELEASE);
  __atomic_store_n(&call->id, 0u, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&call->lock);
}

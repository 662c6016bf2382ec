/* The plugin context of one call: the callbacks a plugin reaches and the frames they make (see context.h). */
#include "context.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* How often cancelled() and progress() look for a cancellation that came in (the host reads a pipe). */
#define POLL_INTERVAL_NS 1000000L
#define US '\x1f'
#define RS '\x1e'
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
  free(call->structured);
  free(call->meta);
  wire_buf_free(&call->waiting);
  wire_buf_free(&call->scratch);
  pthread_mutex_destroy(&call->lock);
}

void wire_call_arm(wire_call_t* call) { __atomic_store_n(&call->cancelled, 0, __ATOMIC_RELEASE); }

void wire_call_cancel(wire_call_t* call) { __atomic_store_n(&call->cancelled, 1, __ATOMIC_RELEASE); }

int wire_call_cancelled(wire_call_t* call) { return __atomic_load_n(&call->cancelled, __ATOMIC_ACQUIRE); }

/* The call a callback is for, while it runs (NULL once it returned: a late callback does nothing). */
static wire_call_t* running(void* host) {
  wire_call_t* call = (wire_call_t*)host;
  return call != NULL && __atomic_load_n(&call->id, __ATOMIC_ACQUIRE) != 0 ? call : NULL;
}

/* Looks for a cancellation that came in, at most once per POLL_INTERVAL_NS (lock held). */
static void poll_locked(wire_call_t* call, int64_t now) {
  if (call->sink.poll == NULL || wire_call_cancelled(call)) return;
  if (call->last_poll_ns != 0 && now - call->last_poll_ns < POLL_INTERVAL_NS) return;
  call->last_poll_ns = now;
  call->sink.poll(call->sink.arg);
}

static int on_cancelled(void* host) {
  wire_call_t* call = running(host);
  if (call == NULL) return 0;
  if (!wire_call_cancelled(call) && call->sink.poll != NULL) {
    pthread_mutex_lock(&call->lock);
    poll_locked(call, wire_now_ns());
    pthread_mutex_unlock(&call->lock);
  }
  return wire_call_cancelled(call) ? 1 : 0;
}

static void put_f64(char* p, double v) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  for (int i = 0; i < 8; i++) p[i] = (char)((bits >> (8 * i)) & 0xff);
}

static entropic_error_t on_progress(double done, double total, const char* message, void* host) {
  wire_call_t* call = running(host);
  if (call == NULL) return ENTROPIC_ERROR_INVALID_STATE;
  char numbers[16];
  put_f64(numbers, done);
  put_f64(numbers + 8, total);
  const void* parts[2] = {numbers, message != NULL ? message : ""};
  size_t lens[2] = {sizeof numbers, message != NULL ? strlen(message) : 0};
  entropic_error_t rc = ENTROPIC_OK;
  pthread_mutex_lock(&call->lock);
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
  pthread_mutex_unlock(&call->lock);
  if (rc == ENTROPIC_OK && wire_call_cancelled(call)) rc = ENTROPIC_ERROR_CANCELLED;
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
  wire_call_t* call = running(host);
  if (call == NULL) return ENTROPIC_ERROR_INVALID_STATE;
  if (data_json == NULL || (int)level < 0 || (int)level > LOG_LEVEL_MAX) return ENTROPIC_ERROR_INVALID_ARGUMENT;
  char head = (char)level;
  const char* name = logger != NULL ? logger : "";
  entropic_error_t rc = ENTROPIC_OK;
  pthread_mutex_lock(&call->lock);
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
  wire_call_t* call = running(host);
  if (call == NULL) return ENTROPIC_ERROR_INVALID_STATE;
  char* copy = NULL;
  if (json != NULL) {
    size_t len = strlen(json);
    copy = (char*)malloc(len + 1);
    if (copy == NULL) return ENTROPIC_ERROR_OUT_OF_MEMORY;
    memcpy(copy, json, len + 1);
  }
  pthread_mutex_lock(&call->lock);
  free(call->structured);
  call->structured = copy;
  pthread_mutex_unlock(&call->lock);
  return ENTROPIC_OK;
}

/* The value of the metadata pair (key NUL value NUL ...) whose key is `prefix` then `key`, the `key` part
 * compared case-insensitively; NULL when there is none. */
static const char* meta_value(const wire_call_t* call, const char* prefix, const char* key) {
  size_t prefix_len = strlen(prefix);
  const char* at = call->meta;
  const char* end = call->meta + call->meta_len;
  while (at != NULL && at < end) {
    const char* value = at + strlen(at) + 1;
    if (value >= end) break;
    if (strncmp(at, prefix, prefix_len) == 0) {
      const char* a = at + prefix_len;
      const char* b = key;
      while (*a != '\0' && *b != '\0' && tolower((unsigned char)*a) == tolower((unsigned char)*b)) a++, b++;
      if (*a == '\0' && *b == '\0') return value;
    }
    at = value + strlen(value) + 1;
  }
  return NULL;
}

static const char* on_header(const char* name, void* host) {
  wire_call_t* call = running(host);
  if (call == NULL || name == NULL) return NULL;
  return meta_value(call, "h:", name);
}

/* Copies `meta` as key NUL value NUL pairs. 0, or -1 when memory ran out. */
static int read_meta(wire_call_t* call, const char* meta) {
  size_t len = meta != NULL ? strlen(meta) : 0;
  call->meta_len = 0;
  if (len == 0) return 0;
  char* out = (char*)realloc(call->meta, len + 2);
  if (out == NULL) return -1;
  call->meta = out;
  size_t n = 0;
  const char* entry = meta;
  const char* end = meta + len;
  while (entry < end) {
    const char* stop = (const char*)memchr(entry, RS, (size_t)(end - entry));
    if (stop == NULL) stop = end;
    const char* sep = (const char*)memchr(entry, US, (size_t)(stop - entry));
    if (sep != NULL) {
      memcpy(out + n, entry, (size_t)(sep - entry));
      n += (size_t)(sep - entry);
      out[n++] = '\0';
      memcpy(out + n, sep + 1, (size_t)(stop - sep - 1));
      n += (size_t)(stop - sep - 1);
      out[n++] = '\0';
    }
    entry = stop + 1;
  }
  call->meta_len = n;
  return 0;
}

const entropic_call_context_t* wire_call_begin(wire_call_t* call, uint32_t id, const char* meta, const wire_sink_t* sink) {
  pthread_mutex_lock(&call->lock);
  call->sink = *sink;
  call->last_progress_ns = 0;
  call->last_poll_ns = 0;
  call->progress_waiting = 0;
  call->log_window_ns = 0;
  call->log_sent = 0;
  call->log_dropped = 0;
  free(call->structured);
  call->structured = NULL;
  int ok = read_meta(call, meta) == 0;
  const char* limit = ok ? meta_value(call, "", "ll") : NULL;
  call->log_limit = limit != NULL ? strtol(limit, NULL, 10) : 0;
  entropic_call_context_t* c = &call->context;
  memset(c, 0, sizeof *c);
  c->size = sizeof *c;
  c->host = call;
  c->cancelled = on_cancelled;
  c->progress = on_progress;
  c->log = on_log;
  c->set_structured = on_set_structured;
  c->header = on_header;
  c->subject = meta_value(call, "", "sub");
  c->scopes = meta_value(call, "", "scp");
  c->protocol_version = meta_value(call, "", "pv");
  c->request_id = meta_value(call, "", "rid");
  __atomic_store_n(&call->id, ok ? id : 0u, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&call->lock);
  return ok ? c : NULL;
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
  __atomic_store_n(&call->id, 0u, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&call->lock);
}

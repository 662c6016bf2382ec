/*
 * entropic_plugin_host: hosts ONE plugin library in its own process and serves the plugin wire
 * (../wire/wire.h) on stdin and a private copy of stdout. Usage:
 *
 *   entropic_plugin_host [--memory-limit-mb N] /absolute/path/plugin.so
 *   entropic_plugin_host --sandbox-probe       (what the OS sandbox can enforce here, as JSON; see sandbox.h)
 *
 * Before the plugin is loaded, the protocol moves to private descriptors: fd 0 reads /dev/null and fd 1 is
 * stderr, so a plugin that prints or reads stdin cannot corrupt the channel. ENTROPIC_HOST_CANCEL_FD names the
 * pipe on which the loader cancels calls of a plugin that has the plugin context (wire.h, context.h); it is taken
 * out of the environment before the plugin loads. ENTROPIC_HOST_SANDBOX, when set, is the OS sandbox applied just
 * before the plugin library is opened (sandbox.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "cancels.h"
#include "channel.h"
#include "context.h"
#include "flusher.h"
#include "plugin.h"
#include "sandbox.h"
#include "spin.h"
#include "wire.h"

static int move_channel(int* in_fd, int* out_fd) {
  *in_fd = fcntl(0, F_DUPFD_CLOEXEC, 3);
  *out_fd = fcntl(1, F_DUPFD_CLOEXEC, 3);
  if (*in_fd < 0 || *out_fd < 0) return -1;
  int null_fd = open("/dev/null", O_RDONLY);
  if (null_fd < 0 || dup2(null_fd, 0) < 0 || dup2(2, 1) < 0) return -1;
  if (null_fd > 2) close(null_fd);
  return 0;
}

static int limit_memory(const char* mib) {
  char* end = NULL;
  unsigned long long value = strtoull(mib, &end, 10);
  if (end == mib || *end != '\0' || value == 0) return -1;
  struct rlimit limit = {.rlim_cur = (rlim_t)(value * 1024ull * 1024ull), .rlim_max = (rlim_t)(value * 1024ull * 1024ull)};
  return setrlimit(RLIMIT_AS, &limit);
}

/* The plugin context of the running call, and what it said last, on its way out before its answer. */
static wire_call_t running_call;
static wire_buf_t context_tail;

static void post_frames(void* unused, const wire_buf_t* frames) {
  (void)unused;
  flusher_post(frames);
}

static const wire_sink_t host_sink = {post_frames, cancels_read, &running_call};

/* Strings the plugin returned, copied into the output buffer and not yet released with its entropic_free.
 * They are released after the answers went out: releasing them while answers wait in the buffer would set
 * the flusher's alarm at every call. */
#define DEFERRED_MAX 64
static char* deferred[DEFERRED_MAX];
static int deferred_count;

static void release_deferred(plugin_t* p) {
  if (deferred_count == 0) return;
  flusher_enter();
  for (int i = 0; i < deferred_count; i++) p->free_fn(deferred[i]);
  flusher_leave();
  deferred_count = 0;
}

/* Writes the buffered answers, then releases the strings they were copied from. 0, or -1 on a write error. */
static int flush_answers(channel_t* ch, plugin_t* p) {
  if (channel_flush(ch) != 0) return -1;
  flusher_written();
  release_deferred(p);
  return 0;
}

/* Buffers the answer of list_tools (as_answer 0) or execute (1), keeping the plugin's string to release later. */
static int put_owned_string(channel_t* ch, plugin_t* p, uint32_t id, char* s, int as_answer) {
  int rc = as_answer ? wire_put_answer(&ch->out, id, s) : wire_put_text(&ch->out, id, s);
  if (s == NULL) return rc;
  if (deferred_count == DEFERRED_MAX && flush_answers(ch, p) != 0) rc = -1;
  deferred[deferred_count++] = s;
  return rc;
}

/* Serves an execute with the plugin context: what the plugin reports while it runs leaves through the flusher;
 * the progress report still waiting and the structured result go just before the answer. A call cancelled
 * before it started is not run (the loader has already settled it; the NULL answer is dropped there). */
static int serve_with_context(channel_t* ch, plugin_t* p, const wire_request_t* r) {
  if (p->execute_with_context == NULL) {
    flusher_enter();
    char* text = p->execute(p->server, r->parts[0], r->parts[1]);
    flusher_leave();
    return put_owned_string(ch, p, r->id, text, 1);
  }
  if (cancels_before(r->id, &running_call)) return wire_put_text(&ch->out, r->id, NULL);
  wire_buf_t* tail = &context_tail;
  tail->len = 0;
  wire_call_arm(&running_call);
  /* After flusher_enter, so the call's lock is only ever taken before the flusher's, never after: a plugin thread
   * inside a callback holds the first and may be waiting for the second. */
  flusher_enter();
  const entropic_call_context_t* context = wire_call_begin(&running_call, r->id, r->parts[2], &host_sink);
  char* text = p->execute_with_context(p->server, r->parts[0], r->parts[1], context);
  /* Before the lock is taken back: a plugin thread still inside a callback holds the call's lock and may be
   * waiting for the flusher's. */
  wire_call_end(&running_call, tail);
  flusher_leave();
  if (tail->len > 0 && wire_reserve(&ch->out, tail->len) == 0) {
    memcpy(ch->out.data + ch->out.len, tail->data, tail->len);
    ch->out.len += tail->len;
  }
  return put_owned_string(ch, p, r->id, text, 1);
}

/* Serves one request. 0: go on; 1: close was asked; -1: the answer could not be buffered. Every call into
 * the plugin sits between flusher_enter and flusher_leave. */
static int serve(channel_t* ch, plugin_t* p, const wire_request_t* r) {
  char* text;
  entropic_error_t code;
  switch (r->op) {
    case WIRE_LIST_TOOLS:
      flusher_enter();
      text = p->list_tools(p->server);
      flusher_leave();
      return put_owned_string(ch, p, r->id, text, 0);
    case WIRE_EXECUTE:
      flusher_enter();
      text = p->execute(p->server, r->parts[0], r->parts[1]);
      flusher_leave();
      return put_owned_string(ch, p, r->id, text, 1);
    case WIRE_EXECUTE_CONTEXT:
      return serve_with_context(ch, p, r);
    case WIRE_CONFIGURE:
    case WIRE_SET_WORKING_DIR:
      flusher_enter();
      code = r->op == WIRE_CONFIGURE ? p->configure(p->server, r->parts[0]) : p->set_working_dir(p->server, r->parts[0]);
      flusher_leave();
      return wire_put_code(&ch->out, r->id, WIRE_CODE, (int32_t)code, NULL, 0);
    case WIRE_CLOSE:
      release_deferred(p);
      flusher_enter();
      plugin_unload(p);
      flusher_leave();
      if (wire_put_code(&ch->out, r->id, WIRE_CODE, 0, NULL, 0) != 0) return -1;
      return 1;
    default: /* WIRE_SPIN_HINT: nothing to answer */
      return 0;
  }
}

/* Serves requests until close or end of input. The answers to the requests read together go out in one write
 * (the flusher sends them earlier when a call is slow). */
static int serve_all(channel_t* ch, plugin_t* p, long spin_ns) {
  for (;;) {
    wire_request_t r;
    int got;
    int lone = 0;
    while ((got = channel_next(ch, &r)) == 1) {
      lone = r.op == WIRE_SPIN_HINT;
      int rc = serve(ch, p, &r);
      if (rc < 0) return 1;
      if (rc == 1) return channel_flush(ch) == 0 ? 0 : 1;
      if (channel_pending(ch) > (1u << 20) && flush_answers(ch, p) != 0) return 1;
    }
    if (got < 0) {
      fprintf(stderr, "entropic_plugin_host: malformed request from the loader\n");
      return 1;
    }
    if (flush_answers(ch, p) != 0) return 1;
    /* Only a lone call's next request is worth waiting for awake; busy pipelines sleep in read. */
    int rd = channel_read(ch, lone ? spin_ns : 0);
    if (rd <= 0) return rd == 0 ? 0 : 1;
  }
}

int main(int argc, char** argv) {
  if (argc == 2 && strcmp(argv[1], "--sandbox-probe") == 0) return sandbox_probe();
  const char* memory = NULL;
  int arg = 1;
  if (argc == 4 && strcmp(argv[1], "--memory-limit-mb") == 0) {
    memory = argv[2];
    arg = 3;
  }
  if (argc != arg + 1) {
    fprintf(stderr, "usage: entropic_plugin_host [--memory-limit-mb N] /absolute/path/plugin.so\n");
    return 2;
  }
  const char* cancel = getenv("ENTROPIC_HOST_CANCEL_FD");
  if (cancel != NULL && cancels_open(cancel) != 0) {
    fprintf(stderr, "entropic_plugin_host: ENTROPIC_HOST_CANCEL_FD=%s is not an open descriptor\n", cancel);
    return 2;
  }
  unsetenv("ENTROPIC_HOST_CANCEL_FD");
  signal(SIGPIPE, SIG_IGN);
#ifdef __linux__
  prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
  int in_fd, out_fd;
  if (move_channel(&in_fd, &out_fd) != 0) {
    fprintf(stderr, "entropic_plugin_host: cannot set up the channel: %s\n", strerror(errno));
    return 2;
  }
  if (memory != NULL && limit_memory(memory) != 0) {
    fprintf(stderr, "entropic_plugin_host: bad --memory-limit-mb %s\n", memory);
    return 2;
  }
  channel_t ch;
  channel_init(&ch, in_fd, out_fd);
  plugin_t plugin;
  load_error_t err;
  int status = 0;
  if (sandbox_apply(argv[arg], &err) != 0 || plugin_load(&plugin, argv[arg], &err) != 0) {
    wire_put_failure(&ch.out, 0, (int32_t)err.code, plugin_error_name((int)err.code), err.message);
    channel_flush(&ch);
    status = 3;
  } else {
    wire_call_init(&running_call);
    uint32_t features = plugin.execute_with_context != NULL ? WIRE_FEATURE_CONTEXT : 0u;
    wire_put_ready(&ch.out, (int32_t)plugin.api_version, plugin.name, features);
    if (flusher_start(&ch) != 0) {
      fprintf(stderr, "entropic_plugin_host: cannot start the flusher thread\n");
      status = 2;
    } else {
      status = serve_all(&ch, &plugin, wire_spin_window_ns());
      release_deferred(&plugin);
      flusher_stop();
    }
    plugin_unload(&plugin);
    wire_call_destroy(&running_call);
    wire_buf_free(&context_tail);
  }
  channel_free(&ch);
  close(in_fd);
  close(out_fd);
  cancels_close();
  return status;
}

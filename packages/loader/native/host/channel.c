/* Buffered request reading and answer writing on two file descriptors (see channel.h). */
#include "channel.h"

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


#define READ_CHUNK (256u * 1024u)

static int reserve(char** buf, size_t* cap, size_t need) {
  if (need <= *cap) return 0;
  size_t next = *cap ? *cap : 4096;
  while (next < need) next *= 2;
  char* grown = realloc(*buf, next);
  if (!grown) return -1;
  *buf = grown;
  *cap = next;
  return 0;
}

void channel_init(channel_t* ch, int in_fd, int out_fd) {
  memset(ch, 0, sizeof *ch);
  ch->in_fd = in_fd;
  ch->out_fd = out_fd;
}

void channel_free(channel_t* ch) {
  free(ch->in);
  ch->in = NULL;
  wire_buf_free(&ch->out);
}

int channel_next(channel_t* ch, wire_request_t* request) {
  /* A request ends at a NUL: while none came since the last look, a long request is not scanned again. */
  size_t from = ch->in_scanned > ch->in_pos ? ch->in_scanned : ch->in_pos;
  if (from == ch->in_pos || memchr(ch->in + from, '\0', ch->in_len - from) != NULL) {
    int got = wire_next_request(ch->in, ch->in_len, &ch->in_pos, request);
    if (got != 0) return got;
  }
  ch->in_scanned = ch->in_len;
  /* A request that does not end within the largest size allowed never will. */
  return ch->in_len - ch->in_pos > WIRE_MAX_FRAME ? -1 : 0;
}

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Polls the input for up to spin_ns, yielding the core between looks, so that a request arriving soon after
 * the last answer finds the host running instead of asleep (waking a sleeping process costs more than a fast
 * call takes). 1 as soon as input is there (the read that follows then does not block), 0 when none came. */
static int wait_briefly(const channel_t* ch, long spin_ns) {
  struct pollfd p = {.fd = ch->in_fd, .events = POLLIN, .revents = 0};
  long long until = now_ns() + spin_ns;
  do {
    if (poll(&p, 1, 0) != 0) return 1;
    sched_yield();
  } while (now_ns() < until);
  return 0;
}

/* After a wait that found nothing, the next reads skip it: 1, then 2, 4... up to SPIN_MAX_SKIP after each
 * further miss in a row, so a caller slower than the wait costs it only now and then. */
#define SPIN_MAX_SKIP 256u

static void maybe_wait(channel_t* ch, long spin_ns) {
  if (ch->spin_skip > 0) {
    ch->spin_skip--;
    return;
  }
  if (wait_briefly(ch, spin_ns)) {
    ch->spin_backoff = 1;
    return;
  }
  ch->spin_skip = ch->spin_backoff ? ch->spin_backoff : 1;
  ch->spin_backoff = ch->spin_skip * 2 > SPIN_MAX_SKIP ? SPIN_MAX_SKIP : ch->spin_skip * 2;
}

int channel_read(channel_t* ch, long spin_ns) {
  if (ch->in_pos > 0) {
    /* Keep only the unread tail; payload pointers from earlier frames are no longer used. */
    memmove(ch->in, ch->in + ch->in_pos, ch->in_len - ch->in_pos);
    ch->in_len -= ch->in_pos;
    ch->in_scanned = ch->in_scanned > ch->in_pos ? ch->in_scanned - ch->in_pos : 0;
    ch->in_pos = 0;
  }
  /* Room for another chunk; a long request keeps doubling the buffer as it comes in. */
  size_t want = ch->in_len > READ_CHUNK ? ch->in_len : READ_CHUNK;
  if (reserve(&ch->in, &ch->in_cap, ch->in_len + want) != 0) return -1;
  if (spin_ns > 0) maybe_wait(ch, spin_ns);
  for (;;) {
    ssize_t n = read(ch->in_fd, ch->in + ch->in_len, ch->in_cap - ch->in_len);
    if (n > 0) {
      ch->in_len += (size_t)n;
      return 1;
    }
    if (n == 0) return 0;
    if (errno != EINTR) return -1;
  }
}

int channel_flush(channel_t* ch) {
  size_t done = 0;
  while (done < ch->out.len) {
    ssize_t n = write(ch->out_fd, ch->out.data + done, ch->out.len - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    done += (size_t)n;
  }
  ch->out.len = 0;
  return 0;
}

size_t channel_pending(const channel_t* ch) { return ch->out.len; }

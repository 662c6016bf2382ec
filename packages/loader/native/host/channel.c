/* Buffered frame reading and writing on two file descriptors (see channel.h). */
#include "channel.h"

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "protocol.h"

#define READ_CHUNK (256u * 1024u)

static uint32_t get_u32(const char* p) {
  const unsigned char* u = (const unsigned char*)p;
  return (uint32_t)u[0] | ((uint32_t)u[1] << 8) | ((uint32_t)u[2] << 16) | ((uint32_t)u[3] << 24);
}

static void put_u32(char* p, uint32_t v) {
  p[0] = (char)(v & 0xff);
  p[1] = (char)((v >> 8) & 0xff);
  p[2] = (char)((v >> 16) & 0xff);
  p[3] = (char)((v >> 24) & 0xff);
}

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
  free(ch->out);
  ch->in = ch->out = NULL;
}

int channel_next(channel_t* ch, frame_t* frame) {
  size_t avail = ch->in_len - ch->in_pos;
  if (avail < 4) return 0;
  const char* head = ch->in + ch->in_pos;
  uint32_t body = get_u32(head);
  if (body < 5 || body > HOST_MAX_FRAME) return -1;
  if (avail < 4 + (size_t)body) return 0;
  frame->id = get_u32(head + 4);
  frame->op = (uint8_t)head[8];
  frame->payload = ch->in + ch->in_pos + 9;
  frame->payload_len = body - 5;
  ch->in_pos += 4 + (size_t)body;
  return 1;
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
    ch->in_pos = 0;
  }
  size_t want = READ_CHUNK;
  if (ch->in_len >= 4) {
    size_t frame = 4 + (size_t)get_u32(ch->in);
    if (frame > ch->in_len + want) want = frame - ch->in_len;
  }
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

int channel_put(channel_t* ch, uint32_t id, uint8_t status, const void* a, size_t a_len, const void* b,
                size_t b_len) {
  size_t body = 5 + a_len + b_len;
  if (body > HOST_MAX_FRAME) return -1;
  if (reserve(&ch->out, &ch->out_cap, ch->out_len + 4 + body) != 0) return -1;
  char* p = ch->out + ch->out_len;
  put_u32(p, (uint32_t)body);
  put_u32(p + 4, id);
  p[8] = (char)status;
  if (a_len) memcpy(p + 9, a, a_len);
  if (b_len) memcpy(p + 9 + a_len, b, b_len);
  ch->out_len += 4 + body;
  return 0;
}

int channel_put_code(channel_t* ch, uint32_t id, uint8_t status, int32_t code, const void* text, size_t len) {
  char le[4];
  put_u32(le, (uint32_t)code);
  return channel_put(ch, id, status, le, 4, text, len);
}

int channel_flush(channel_t* ch) {
  size_t done = 0;
  while (done < ch->out_len) {
    ssize_t n = write(ch->out_fd, ch->out + done, ch->out_len - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    done += (size_t)n;
  }
  ch->out_len = 0;
  return 0;
}

size_t channel_pending(const channel_t* ch) { return ch->out_len; }

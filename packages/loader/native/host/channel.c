/* Buffered request reading and answer writing on two file descriptors (see channel.h). */
#include "channel.h"

#include <errno.h>
#include <poll.h>
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

/* Input is waiting (a read would not block). */
static int input_ready(void* arg) {
  struct pollfd p = {.fd = *(const int*)arg, .events = POLLIN, .revents = 0};
  return poll(&p, 1, 0) != 0;
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
  if (spin_ns > 0) wire_spin(&ch->spin, spin_ns, input_ready, &ch->in_fd);
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

/* The host's end of the cancel pipe (see cancels.h). */
#include "cancels.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CANCELLED_MAX 64
static int cancel_fd = -1;
static uint32_t cancelled_ids[CANCELLED_MAX];
static unsigned cancelled_next;
static unsigned char rest[4]; /* the start of an id split across reads */
static size_t rest_len;

int cancels_open(const char* fd_text) {
  char* end = NULL;
  long fd = strtol(fd_text, &end, 10);
  if (end == fd_text || *end != '\0' || fd < 0 || fcntl((int)fd, F_GETFD) < 0) return -1;
  cancel_fd = fcntl((int)fd, F_DUPFD_CLOEXEC, 3);
  if (cancel_fd < 0) return -1;
  close((int)fd);
  return fcntl(cancel_fd, F_SETFL, fcntl(cancel_fd, F_GETFL) | O_NONBLOCK) < 0 ? -1 : 0;
}

void cancels_close(void) {
  if (cancel_fd >= 0) close(cancel_fd);
  cancel_fd = -1;
}

static void note(uint32_t id, wire_call_t* running) {
  if (id != 0 && id == __atomic_load_n(&running->id, __ATOMIC_ACQUIRE)) {
    wire_call_cancel(running);
    return;
  }
  cancelled_ids[cancelled_next++ % CANCELLED_MAX] = id;
}

void cancels_read(void* running) {
  if (cancel_fd < 0) return;
  unsigned char buf[256];
  for (;;) {
    memcpy(buf, rest, rest_len);
    ssize_t n = read(cancel_fd, buf + rest_len, sizeof buf - rest_len);
    if (n <= 0) {
      if (n == 0 || errno != EINTR) return; /* EAGAIN: nothing more; 0: the loader is gone */
      continue;
    }
    size_t have = rest_len + (size_t)n;
    size_t at = 0;
    for (; at + 4 <= have; at += 4) {
      uint32_t id = (uint32_t)buf[at] | (uint32_t)buf[at + 1] << 8 | (uint32_t)buf[at + 2] << 16 |
                    (uint32_t)buf[at + 3] << 24;
      note(id, (wire_call_t*)running);
    }
    rest_len = have - at;
    memcpy(rest, buf + at, rest_len);
  }
}

int cancels_before(uint32_t id, wire_call_t* running) {
  cancels_read(running);
  for (unsigned i = 0; i < CANCELLED_MAX; i++) {
    if (cancelled_ids[i] == id) {
      cancelled_ids[i] = 0;
      return 1;
    }
  }
  return 0;
}

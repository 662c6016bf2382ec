/* Buffered reading of requests and writing of answer frames on two file descriptors (see ../wire/wire.h). */
#ifndef ENTROPIC_HOST_CHANNEL_H
#define ENTROPIC_HOST_CHANNEL_H

#include <stddef.h>
#include <stdint.h>

#include "spin.h"
#include "wire.h"

typedef struct {
  int in_fd;
  int out_fd;
  char* in;
  size_t in_len;
  size_t in_pos;
  size_t in_cap;
  size_t in_scanned;     /* input before this holds no NUL that would end the pending request */
  wire_buf_t out;        /* answer frames not written yet */
  wire_spin_t spin;      /* staying awake after lone calls (spin.h) */
} channel_t;

void channel_init(channel_t* ch, int in_fd, int out_fd);
void channel_free(channel_t* ch);

/* 1: a complete request was taken from the buffer (its parts stay valid until the next channel_read); 0: more
 * input is needed; -1: malformed input. */
int channel_next(channel_t* ch, wire_request_t* request);
/* Reads what is available (blocking until something is), after looking for it awake for up to spin_ns (0: blocks
 * at once; see spin.h). 1 read, 0 end of input, -1 error. */
int channel_read(channel_t* ch, long spin_ns);

/* Writes every buffered response. 0 on success, -1 when the reader is gone. */
int channel_flush(channel_t* ch);
size_t channel_pending(const channel_t* ch);

#endif

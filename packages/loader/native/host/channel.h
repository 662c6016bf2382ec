/* Buffered frame reading and writing on two file descriptors (see protocol.h). */
#ifndef ENTROPIC_HOST_CHANNEL_H
#define ENTROPIC_HOST_CHANNEL_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  int in_fd;
  int out_fd;
  char* in;
  size_t in_len;
  size_t in_pos;
  size_t in_cap;
  char* out;
  size_t out_len;
  size_t out_cap;
  unsigned spin_skip;    /* reads left that skip the poll after one that found nothing */
  unsigned spin_backoff; /* the skip after the next miss */
} channel_t;

typedef struct {
  uint32_t id;
  uint8_t op;
  char* payload; /* points into the channel's input buffer; valid until the next channel_read */
  size_t payload_len;
} frame_t;

void channel_init(channel_t* ch, int in_fd, int out_fd);
void channel_free(channel_t* ch);

/* 1: a complete frame was taken from the buffer; 0: more input is needed; -1: malformed input. */
int channel_next(channel_t* ch, frame_t* frame);
/* Reads what is available (blocking until something is), after polling for it for up to spin_ns (0: blocks at
 * once). 1 read, 0 end of input, -1 error. */
int channel_read(channel_t* ch, long spin_ns);

/* Appends one response frame; the payload is the concatenation of two parts (either may be empty). */
int channel_put(channel_t* ch, uint32_t id, uint8_t status, const void* a, size_t a_len, const void* b,
                size_t b_len);
int channel_put_code(channel_t* ch, uint32_t id, uint8_t status, int32_t code, const void* text, size_t len);
/* Writes every buffered response. 0 on success, -1 when the reader is gone. */
int channel_flush(channel_t* ch);
size_t channel_pending(const channel_t* ch);

#endif

/* Reading requests and writing answer frames of the plugin wire (see wire.h). Valid C and C++. */
#include "wire.h"

#include <stdlib.h>
#include <string.h>

static int parts_of(char op) {
  switch (op) {
    case WIRE_LIST_TOOLS:
    case WIRE_CLOSE:
    case WIRE_SPIN_HINT:
      return 0;
    case WIRE_CONFIGURE:
    case WIRE_SET_WORKING_DIR:
      return 1;
    case WIRE_EXECUTE:
      return 2;
    case WIRE_EXECUTE_CONTEXT:
      return 3;
    default:
      return -1;
  }
}

/* The decimal id in [from, to): 1 and *id, or 0 when it is empty, not digits or over 32 bits. */
static int read_id(const char* from, const char* to, uint32_t* id) {
  if (from == to || to - from > 10) return 0;
  uint64_t value = 0;
  for (const char* p = from; p < to; p++) {
    if (*p < '0' || *p > '9') return 0;
    value = value * 10u + (uint64_t)(*p - '0');
  }
  if (value > 0xffffffffu) return 0;
  *id = (uint32_t)value;
  return 1;
}

int wire_next_request(const char* buf, size_t len, size_t* pos, wire_request_t* request) {
  size_t at = *pos;
  if (at >= len) return 0;
  const char* head = buf + at;
  const char* nul = (const char*)memchr(head, '\0', len - at);
  if (nul == NULL) return len - at > 16 ? -1 : 0; /* a head is at most a letter and ten digits */
  int count = parts_of(head[0]);
  if (count < 0 || !read_id(head + 1, nul, &request->id)) return -1;
  request->op = head[0];
  request->part_count = count;
  at = (size_t)(nul - buf) + 1;
  for (int i = 0; i < count; i++) {
    const char* part = buf + at;
    const char* end = at < len ? (const char*)memchr(part, '\0', len - at) : NULL;
    if (end == NULL) return 0;
    request->parts[i] = part;
    at = (size_t)(end - buf) + 1;
  }
  *pos = at;
  return 1;
}

void wire_buf_free(wire_buf_t* b) {
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

int wire_reserve(wire_buf_t* b, size_t extra) {
  if (extra > WIRE_MAX_FRAME + WIRE_FRAME_HEAD) return -1;
  size_t need = b->len + extra;
  if (need <= b->cap) return 0;
  size_t next = b->cap ? b->cap : 4096;
  while (next < need) next *= 2;
  char* grown = (char*)realloc(b->data, next);
  if (grown == NULL) return -1;
  b->data = grown;
  b->cap = next;
  return 0;
}

static void put_u32(char* p, uint32_t v) {
  p[0] = (char)(v & 0xff);
  p[1] = (char)((v >> 8) & 0xff);
  p[2] = (char)((v >> 16) & 0xff);
  p[3] = (char)((v >> 24) & 0xff);
}

/* Reserves one frame with a payload of `payload` bytes and writes its head; where the payload goes, or NULL. */
static char* begin_frame(wire_buf_t* b, uint32_t id, uint8_t status, size_t payload) {
  if (payload > WIRE_MAX_FRAME - 5 || wire_reserve(b, WIRE_FRAME_HEAD + payload) != 0) return NULL;
  char* p = b->data + b->len;
  put_u32(p, (uint32_t)(5 + payload));
  put_u32(p + 4, id);
  p[8] = (char)status;
  b->len += WIRE_FRAME_HEAD + payload;
  return p + WIRE_FRAME_HEAD;
}

int wire_put(wire_buf_t* b, uint32_t id, uint8_t status, const void* a, size_t a_len, const void* c, size_t c_len) {
  if (a_len > WIRE_MAX_FRAME || c_len > WIRE_MAX_FRAME) return -1;
  char* p = begin_frame(b, id, status, a_len + c_len);
  if (p == NULL) return -1;
  if (a_len) memcpy(p, a, a_len);
  if (c_len) memcpy(p + a_len, c, c_len);
  return 0;
}

int wire_put_parts(wire_buf_t* b, uint32_t id, uint8_t status, const void* const* parts, const size_t* lens, int count) {
  size_t total = 0;
  for (int i = 0; i < count; i++) {
    if (lens[i] > WIRE_MAX_FRAME - total) return -1;
    total += lens[i];
  }
  char* p = begin_frame(b, id, status, total);
  if (p == NULL) return -1;
  for (int i = 0; i < count; i++) {
    if (lens[i]) memcpy(p, parts[i], lens[i]);
    p += lens[i];
  }
  return 0;
}

int wire_put_ready(wire_buf_t* b, int32_t api_version, const char* name, uint32_t features) {
  char head[4], tail[5];
  put_u32(head, (uint32_t)api_version);
  tail[0] = '\0';
  put_u32(tail + 1, features);
  const void* parts[3] = {head, name, tail};
  size_t lens[3] = {4, strlen(name), features ? 5u : 0u};
  return wire_put_parts(b, 0, WIRE_READY, parts, lens, 3);
}

int wire_put_code(wire_buf_t* b, uint32_t id, uint8_t status, int32_t code, const void* text, size_t len) {
  char* p = begin_frame(b, id, status, 4 + len);
  if (p == NULL) return -1;
  put_u32(p, (uint32_t)code);
  if (len) memcpy(p + 4, text, len);
  return 0;
}

int wire_put_failure(wire_buf_t* b, uint32_t id, int32_t value, const char* name, const char* message) {
  size_t name_len = strlen(name) + 1; /* with its NUL */
  size_t message_len = strlen(message);
  if (message_len > WIRE_MAX_FRAME / 2) message_len = WIRE_MAX_FRAME / 2;
  char* p = begin_frame(b, id, WIRE_FAILED, 4 + name_len + message_len);
  if (p == NULL) return -1;
  put_u32(p, (uint32_t)value);
  memcpy(p + 4, name, name_len);
  memcpy(p + 4 + name_len, message, message_len);
  return 0;
}

int wire_put_text(wire_buf_t* b, uint32_t id, const char* text) {
  if (text == NULL) return wire_put(b, id, WIRE_NULL, NULL, 0, NULL, 0);
  return wire_put(b, id, WIRE_STRING, text, strlen(text), NULL, 0);
}

#define PLAIN_HEAD "{\"result\":\""
#define PLAIN_TAIL_DIRECTIVES "\",\"directives\":[]}"

int wire_plain_result(const char* text, size_t len, size_t* from, size_t* to) {
  const size_t head = sizeof PLAIN_HEAD - 1;
  if (len < head + 2 || memcmp(text, PLAIN_HEAD, head) != 0) return 0;
  size_t at = head;
  for (; at < len; at++) {
    unsigned char c = (unsigned char)text[at];
    if (c == '"') break;
    if (c == '\\' || c < 0x20) return 0;
  }
  if (at >= len) return 0;
  const size_t tail = len - at;
  const size_t directives = sizeof PLAIN_TAIL_DIRECTIVES - 1;
  int closed = (tail == 2 && text[at + 1] == '}') ||
               (tail == directives && memcmp(text + at, PLAIN_TAIL_DIRECTIVES, directives) == 0);
  if (!closed) return 0;
  *from = head;
  *to = at;
  return 1;
}

int wire_put_answer(wire_buf_t* b, uint32_t id, const char* text) {
  if (text == NULL) return wire_put(b, id, WIRE_NULL, NULL, 0, NULL, 0);
  size_t len = strlen(text);
  size_t from, to;
  if (wire_plain_result(text, len, &from, &to)) return wire_put(b, id, WIRE_PLAIN, text + from, to - from, NULL, 0);
  return wire_put(b, id, WIRE_STRING, text, len, NULL, 0);
}

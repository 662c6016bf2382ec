/*
 * The wire between the loader (Node) and one plugin instance, the same whether the instance runs in its own
 * entropic_plugin_host process (over pipes) or on a thread of the in-process addon (in memory). The loader's
 * side is src/calls/wire.ts.
 *
 * REQUESTS (loader -> instance) are text, so the loader builds a whole burst of them as one string. Each
 * request is NUL-ended fields: a head, `<op><id>` (one ASCII letter, then the decimal id), then as many parts
 * as the op takes. No part holds a NUL: the loader refuses one in a tool name or a path, and JSON text escapes
 * every control character.
 *
 *   L<id>                     list_tools
 *   E<id> tool  arguments     execute (arguments: JSON text)
 *   F<id> tool  arguments  meta
 *                             execute with the plugin context (only to a plugin that defines
 *                             entropic_mcp_server_execute_with_context; meta: the caller, see context.h)
 *   C<id> config              configure (JSON text)
 *   W<id> path                set_working_dir
 *   X<id>                     close: destroy, unload, answer, and read nothing more
 *   S0                        no answer: the requests before it were sent with at most two calls in flight,
 *                             so after answering them the instance looks for the next request for a moment
 *                             before it sleeps
 *
 * ANSWERS (instance -> loader) are binary frames: a little-endian u32 body length, then the body
 * `u32 id, u8 status, payload`. Calls are answered one at a time, in the order they came.
 *
 *   WIRE_STRING     the string the plugin returned, raw (no terminator)
 *   WIRE_NULL       the plugin returned NULL
 *   WIRE_CODE       i32: what configure / set_working_dir returned (0 for a close)
 *   WIRE_READY      i32 API version, then the plugin's name (id 0, the first frame); then, from hosts that know
 *                   the plugin context, NUL and a u32 of WIRE_FEATURE_* bits (a loader that reads no NUL in
 *                   the name takes the plugin as plain)
 *   WIRE_FAILED     i32 entropic_error_t value, the error's name, NUL, a message (id 0: the load was refused)
 *   WIRE_PLAIN      an execute answer of the compact shape {"result":"..."} or
 *                   {"result":"...","directives":[]} whose result needs no unescaping (no backslash, no quote,
 *                   no control character): the payload is the result text alone. Every other answer travels
 *                   as WIRE_STRING and the loader reads it in full.
 *   WIRE_PROGRESS, WIRE_LOG, WIRE_STRUCTURED
 *                   what a running call said through its context, before its answer (context.h); they do not
 *                   answer the call.
 *
 * CANCELLATION (loader -> host process) has a pipe of its own, the host's fd given by --cancel-fd: each
 * cancelled call is its u32 id, little-endian. The in-process addon gets the id by a direct call instead.
 */
#ifndef ENTROPIC_WIRE_H
#define ENTROPIC_WIRE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Larger requests or answers are refused. */
#define WIRE_MAX_FRAME (1u << 30)
/* Bytes of an answer frame before its payload. */
#define WIRE_FRAME_HEAD 9u

enum wire_op {
  WIRE_LIST_TOOLS = 'L',
  WIRE_EXECUTE = 'E',
  WIRE_EXECUTE_CONTEXT = 'F',
  WIRE_CONFIGURE = 'C',
  WIRE_SET_WORKING_DIR = 'W',
  WIRE_CLOSE = 'X',
  WIRE_SPIN_HINT = 'S',
};

enum wire_status {
  WIRE_STRING = 0,
  WIRE_NULL = 1,
  WIRE_CODE = 2,
  WIRE_READY = 3,
  WIRE_FAILED = 4,
  WIRE_PLAIN = 5,
  WIRE_PROGRESS = 6,
  WIRE_LOG = 7,
  WIRE_STRUCTURED = 8,
};

/* Bits of the READY frame's features. */
#define WIRE_FEATURE_CONTEXT 1u

typedef struct {
  uint32_t id;
  char op;
  int part_count;
  const char* parts[3]; /* NUL-ended, in the buffer the request was read from */
} wire_request_t;

/*
 * Takes the request starting at buf[*pos] (the buffer holds `len` bytes). 1: taken, *pos moved past it;
 * 0: the buffer ends before the request does; -1: malformed (an unknown op, a bad id). The parts point into
 * `buf` and stay valid as long as those bytes do.
 */
int wire_next_request(const char* buf, size_t len, size_t* pos, wire_request_t* request);

/* A growable byte buffer of answer frames. */
typedef struct {
  char* data;
  size_t len;
  size_t cap;
} wire_buf_t;

void wire_buf_free(wire_buf_t* b);
/* Makes room for `extra` more bytes. 0, or -1 when memory ran out or the size is over WIRE_MAX_FRAME. */
int wire_reserve(wire_buf_t* b, size_t extra);

/* Appends one frame whose payload is a then b (either may be empty). 0, or -1 (out of memory, too large). */
int wire_put(wire_buf_t* b, uint32_t id, uint8_t status, const void* a, size_t a_len, const void* c, size_t c_len);
/* Appends one frame whose payload is the `count` pieces one after the other. 0, or -1. */
int wire_put_parts(wire_buf_t* b, uint32_t id, uint8_t status, const void* const* parts, const size_t* lens, int count);
/* Appends the READY frame: the API version, the name, and (when `features` is not 0) NUL and the features. */
int wire_put_ready(wire_buf_t* b, int32_t api_version, const char* name, uint32_t features);
/* Appends a frame whose payload is a little-endian i32, then `text`. */
int wire_put_code(wire_buf_t* b, uint32_t id, uint8_t status, int32_t code, const void* text, size_t len);
/* Appends a WIRE_FAILED frame: the value, its contract name, NUL, the message. */
int wire_put_failure(wire_buf_t* b, uint32_t id, int32_t value, const char* name, const char* message);
/* Appends what list_tools returned: WIRE_STRING, or WIRE_NULL for NULL. */
int wire_put_text(wire_buf_t* b, uint32_t id, const char* text);
/* Appends what execute returned: WIRE_PLAIN when the answer allows it, else as wire_put_text. */
int wire_put_answer(wire_buf_t* b, uint32_t id, const char* text);

/* The result of a compact answer with a plain result: 1 and its place in `text`, else 0 (see WIRE_PLAIN). */
int wire_plain_result(const char* text, size_t len, size_t* from, size_t* to);

#ifdef __cplusplus
}
#endif

#endif

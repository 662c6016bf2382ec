/*
 * The framed protocol between the loader (Node) and entropic_plugin_host, over the host's stdin and the
 * private copy of its stdout. Every frame is a little-endian u32 body length, then the body:
 *
 *   request  body: u32 id, u8 op, payload
 *   response body: u32 id, u8 status, payload
 *
 * Request payloads are NUL-terminated strings, so the host uses them in place:
 *   OP_LIST_TOOLS       (none)
 *   OP_EXECUTE          tool name NUL, arguments JSON NUL
 *   OP_CONFIGURE        configuration JSON NUL
 *   OP_SET_WORKING_DIR  path NUL
 *   OP_CLOSE            (none): destroy, unload, answer, exit 0
 *
 * Responses carry the request's id; the first frame the host writes has id 0 and is either ST_READY
 * (i32 api version, then the plugin's name) or ST_LOAD_ERROR (i32 error value, error name NUL, message).
 * Strings returned by the plugin travel raw (ST_STRING, no terminator) or as ST_NULL; entropic_error_t
 * results as ST_CODE (i32). Calls are served one at a time, in order of arrival.
 *
 * OP_FLAG_LONE may be set on an op: the request was sent with at most two calls in flight, so the loader waits
 * on its answer, and after answering the host looks for the next request for a moment before it sleeps.
 */
#ifndef ENTROPIC_HOST_PROTOCOL_H
#define ENTROPIC_HOST_PROTOCOL_H

#define HOST_MAX_FRAME (1u << 30)

enum host_op {
  OP_LIST_TOOLS = 1,
  OP_EXECUTE = 2,
  OP_CONFIGURE = 3,
  OP_SET_WORKING_DIR = 4,
  OP_CLOSE = 5,
};

#define OP_FLAG_LONE 0x80

enum host_status {
  ST_STRING = 0,
  ST_NULL = 1,
  ST_CODE = 2,
  ST_READY = 3,
  ST_LOAD_ERROR = 4,
  ST_BAD_REQUEST = 5,
};

#endif

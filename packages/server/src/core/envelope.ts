/** Hand-written JSON-RPC 2.0 envelope checks: classify a parsed value without a schema library. */

import { ErrorCode, type WireError } from './errors.js';

export enum Kind {
  Request,
  Notification,
  Response,
  Invalid,
}

export interface Invalid {
  /** The id to answer with (null when the message had no usable id). */
  id: string | number | null;
  error: WireError;
}

function validId(id: unknown): id is string | number {
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}

/** Which of the four a message is. `message` must be a non-array object. */
export function classify(message: Record<string, unknown>): Kind {
  if (message.jsonrpc !== '2.0') return Kind.Invalid;
  const method = message.method;
  if (typeof method === 'string') {
    const params = message.params;
    if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
      return Kind.Invalid;
    }
    if (message.id === undefined) return Kind.Notification;
    return validId(message.id) ? Kind.Request : Kind.Invalid;
  }
  if (
    method === undefined &&
    validId(message.id) &&
    (message.result !== undefined || message.error !== undefined)
  ) {
    return Kind.Response;
  }
  if (method === undefined && message.id === null && message.error !== undefined) return Kind.Response;
  return Kind.Invalid;
}

/** Whether a message `classify` called invalid can still be answered by its own id: a 2.0 request with a usable id. */
export function answerableById(message: Record<string, unknown>): boolean {
  return message.jsonrpc === '2.0' && typeof message.method === 'string' && validId(message.id);
}

/** The error answer for a message `classify` called invalid. */
export function describeInvalid(message: unknown): Invalid {
  if (typeof message !== 'object' || message === null) {
    return invalid(null, 'Invalid Request: a JSON-RPC message must be an object');
  }
  const m = message as Record<string, unknown>;
  const id = validId(m.id) ? m.id : null;
  if (m.jsonrpc !== '2.0') return invalid(id, 'Invalid Request: "jsonrpc" must be "2.0"', '/jsonrpc');
  if (m.method !== undefined && typeof m.method !== 'string') {
    return invalid(id, 'Invalid Request: "method" must be a string', '/method');
  }
  if (typeof m.method === 'string') {
    if (m.id !== undefined && !validId(m.id)) {
      return invalid(null, 'Invalid Request: "id" must be a string or a number', '/id');
    }
    if (Array.isArray(m.params)) {
      return {
        id,
        error: {
          code: ErrorCode.InvalidParams,
          message: 'Invalid params: MCP params must be an object, not an array',
          data: { pointer: '/params' },
        },
      };
    }
    return invalid(id, 'Invalid Request: "params" must be an object', '/params');
  }
  return invalid(id, 'Invalid Request: neither a request, a notification nor a response');
}

function invalid(id: string | number | null, message: string, pointer?: string): Invalid {
  return {
    id,
    error:
      pointer === undefined
        ? { code: ErrorCode.InvalidRequest, message }
        : { code: ErrorCode.InvalidRequest, message, data: { pointer } },
  };
}

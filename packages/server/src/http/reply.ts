/**
 * Error replies of the HTTP layer: a status code and a JSON-RPC error body naming what was wrong.
 * Bodies never carry stack traces, file paths or the text of unexpected exceptions.
 */

import type { ServerResponse } from 'node:http';

export function sendJsonError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers?: Record<string, string>,
): void {
  if (res.headersSent) {
    if (!res.writableEnded) res.end();
    return;
  }
  const body = `{"jsonrpc":"2.0","error":{"code":${code},"message":${JSON.stringify(message)}},"id":null}`;
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}

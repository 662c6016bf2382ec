/**
 * A 2026-07-28 tool call run as a task over raw HTTP (the SDK v2 client 2.4.0 refuses a task answer):
 * the call declares the tasks extension, and its task is polled with `tasks/get` until it ends. Every
 * request goes through the lane's tap, so its answers are read off the wire like the SDKs' are.
 */

import { holdFor } from '@entropic-mcp/test-kit/wait';
import type { ToolAnswer } from './clients.js';
import type { Tap } from './tap.js';

const VERSION = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'chaos-raw-modern', version: '1.0.0' },
};
const POLL_MS = 150;
let ids = 0;

/** A JSON-RPC error answer, thrown with its code (as the SDKs throw theirs). */
class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(`MCP error ${code}: ${message}`);
  }
}

/** One request: its JSON-RPC result, or the error thrown. */
async function request(
  tap: Tap,
  url: URL,
  method: string,
  params: Record<string, unknown>,
  name: string,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const body = { jsonrpc: '2.0', id: `task-${++ids}`, method, params: { ...params, _meta: META } };
  const res = await tap.fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': VERSION,
      'mcp-method': method,
      'mcp-name': name,
    },
    body: JSON.stringify(body),
    signal,
  });
  const text = await res.text();
  const data = text.trimStart().startsWith('{')
    ? text
    : text
        .split('\n')
        .filter((line) => line.startsWith('data: ') && line.length > 6)
        .at(-1)
        ?.slice(6);
  let message: { result?: Record<string, unknown>; error?: { code: number; message: string } } | undefined;
  try {
    message = data === undefined ? undefined : JSON.parse(data);
  } catch {
    message = undefined;
  }
  if (message?.error !== undefined) throw new RpcError(message.error.code, message.error.message);
  if (message?.result === undefined) throw new Error(`${method}: HTTP ${res.status} with no answer`);
  return message.result;
}

export async function modernTask(
  tap: Tap,
  url: URL,
  name: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<ToolAnswer> {
  let result = await request(tap, url, 'tools/call', { name, arguments: args }, name, signal);
  while (result.resultType === 'task') {
    const taskId = String(result.taskId);
    await holdFor(POLL_MS); // the client's poll interval, as a 2026-07-28 client polls a task
    const task = await request(tap, url, 'tasks/get', { taskId }, taskId, signal);
    if (task.status === 'completed') result = task.result as Record<string, unknown>;
    else if (task.status === 'failed') {
      const error = task.error as { code?: number; message?: string } | undefined;
      throw new RpcError(error?.code ?? -32603, error?.message ?? String(task.statusMessage));
    } else if (task.status === 'cancelled') throw new Error(`task ${taskId} was cancelled`);
  }
  return result as ToolAnswer;
}

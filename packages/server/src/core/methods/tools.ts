/** tools/call: argument validation, the handler, tool errors, output validation. */

import { ErrorCode, McpError, ToolError } from '../errors.js';
import type { MethodContext } from '../host.js';
import { isThenable, Later, type LaterListener } from '../later.js';
import { invalidParams } from '../params.js';
import { toolInputErrorsAsResults } from '../protocol.js';
import type { ToolEntry } from '../registry.js';
import { Accepted, type Verdict } from '../tool-schema.js';
import type { ToolResult } from '../types.js';
import { toolFor } from '../visibility/lookup.js';
import { startTask, taskMode } from './tasks/decide.js';

export function callTool(req: MethodContext): unknown {
  const params = req.params;
  const name = params?.name;
  if (typeof name !== 'string')
    throw invalidParams('tools/call needs params.name as a string', '/params/name');
  const entry = toolFor(req.session.server, req, name);
  let args = params?.arguments as Record<string, unknown> | undefined;
  if (args === undefined) args = {};
  else if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw invalidParams('tools/call needs params.arguments as an object', '/params/arguments');
  }
  const tasks = req.session.server.tasks;
  const mode = tasks === undefined ? undefined : taskMode(req, entry.taskSupport, name);
  const run = (value: Record<string, unknown>): unknown =>
    tasks === undefined || mode === undefined
      ? runTool(req, entry, name, value)
      : startTask(tasks, req, mode, () => runTool(req, entry, name, value));
  if (entry.validateInput === undefined) return run(args);
  const verdict = entry.validateInput(args);
  if (verdict instanceof Promise) return verdict.then((v) => afterInput(req, name, args, v, run));
  return afterInput(req, name, args, verdict, run);
}

function afterInput(
  req: MethodContext,
  name: string,
  args: Record<string, unknown>,
  verdict: Verdict,
  run: (args: Record<string, unknown>) => unknown,
): unknown {
  if (verdict instanceof Accepted) return run(verdict.value as Record<string, unknown>);
  if (verdict === undefined) return run(args);
  const text = `Invalid arguments for tool ${name}: ${verdict.pointer || '/'} ${verdict.message}`;
  if (toolInputErrorsAsResults(req.client.protocolVersion)) {
    return { content: [{ type: 'text', text }], isError: true };
  }
  throw new McpError(ErrorCode.InvalidParams, text, { pointer: `/params/arguments${verdict.pointer}` });
}

function runTool(req: MethodContext, entry: ToolEntry, name: string, args: Record<string, unknown>): unknown {
  let out: unknown;
  try {
    out = entry.handler(args, req);
  } catch (error) {
    return toolFailure(error);
  }
  if (out instanceof Later) {
    const checked = new CheckedResult(entry, name);
    out.listen(checked);
    return checked;
  }
  if (isThenable(out)) return out.then((result) => checkResult(entry, name, result), toolFailure);
  return checkResult(entry, name, out);
}

/** The result of a handler that answered through a `Later`, checked as any other once it comes. */
class CheckedResult extends Later implements LaterListener {
  constructor(
    private readonly entry: ToolEntry,
    private readonly name: string,
  ) {
    super();
  }

  onSettled(ok: boolean, value: unknown): void {
    let out: unknown;
    try {
      out = ok ? checkResult(this.entry, this.name, value) : toolFailure(value);
    } catch (error) {
      this.reject(error);
      return;
    }
    if (isThenable(out))
      out.then(
        (result) => this.resolve(result),
        (error) => this.reject(error),
      );
    else this.resolve(out);
  }
}

function toolFailure(error: unknown): ToolResult {
  if (error instanceof ToolError) return { content: [{ type: 'text', text: error.message }], isError: true };
  throw error;
}

function checkResult(entry: ToolEntry, name: string, result: unknown): unknown {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) {
    throw new Error(
      `tool ${name} returned ${Array.isArray(result) ? 'an array' : typeof result}, not { content }`,
    );
  }
  const r = result as ToolResult;
  if (!Array.isArray(r.content)) {
    if (r.structuredContent === undefined) throw new Error(`tool ${name} returned no content array`);
    r.content = [{ type: 'text', text: JSON.stringify(r.structuredContent) }];
  }
  if (entry.validateOutput !== undefined && r.isError !== true) {
    if (r.structuredContent === undefined) {
      throw new McpError(
        ErrorCode.InternalError,
        `Internal error in tools/call: tool ${name} declares an outputSchema but returned no structuredContent`,
      );
    }
    const verdict = entry.validateOutput(r.structuredContent);
    if (verdict instanceof Promise) return verdict.then((v) => afterOutput(r, name, v));
    return afterOutput(r, name, verdict);
  }
  return r;
}

function afterOutput(r: ToolResult, name: string, verdict: Verdict): ToolResult {
  if (verdict instanceof Accepted) {
    r.structuredContent = verdict.value as Record<string, unknown>;
  } else if (verdict !== undefined) {
    throw new McpError(
      ErrorCode.InternalError,
      `Internal error in tools/call: structuredContent of tool ${name} does not match its outputSchema at ${verdict.pointer || '/'}: ${verdict.message}`,
      { pointer: `/structuredContent${verdict.pointer}` },
    );
  }
  return r;
}

/** prompts/list and prompts/get. */

import { ErrorCode, McpError } from '../errors.js';
import type { MethodContext } from '../host.js';
import { page } from '../pagination.js';
import { andThen, invalidParams, optionalObject, requireString } from './params.js';

export function listPrompts(req: MethodContext): unknown {
  const server = req.session.server;
  return page('prompts', server.prompts.list(), req.params?.cursor, server.options.pageSize);
}

export function getPrompt(req: MethodContext): unknown {
  const name = requireString(req.params, 'name', 'prompts/get');
  const entry = req.session.server.prompts.get(name);
  if (entry === undefined) {
    throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`, { pointer: '/params/name' });
  }
  const args = (optionalObject(req.params, 'arguments', 'prompts/get') ?? {}) as Record<string, string>;
  for (const key of Object.keys(args)) {
    if (typeof args[key] !== 'string') {
      throw invalidParams(`argument "${key}" of prompt ${name} must be a string`, `/params/arguments/${key}`);
    }
  }
  for (const required of entry.required) {
    if (args[required] === undefined) {
      throw invalidParams(`prompt ${name} needs the argument "${required}"`, `/params/arguments/${required}`);
    }
  }
  return andThen(entry.handler(args, req), (out) => {
    if (Array.isArray(out)) return { messages: out };
    if (typeof out === 'object' && out !== null && Array.isArray((out as { messages?: unknown }).messages))
      return out;
    throw new Error(`prompt ${name} returned neither { messages } nor an array of messages`);
  });
}

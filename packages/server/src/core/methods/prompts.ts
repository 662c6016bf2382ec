/** prompts/get: the arguments checked (strings, required ones, the argsSchema), then the handler. */

import type { MethodContext } from '../host.js';
import { andThen, invalidParams, optionalObject, requireString } from '../params.js';
import type { PromptEntry } from '../registry.js';
import { Accepted, type Verdict } from '../tool-schema.js';
import { promptFor } from '../visibility/lookup.js';

export function getPrompt(req: MethodContext): unknown {
  const name = requireString(req.params, 'name', 'prompts/get');
  const entry = promptFor(req.session.server, req, name);
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
  if (entry.validate === undefined) return runPrompt(req, entry, name, args);
  return andThen(entry.validate(args), (verdict) =>
    runPrompt(req, entry, name, checked(name, args, verdict)),
  );
}

/** The arguments the handler gets: the schema's output (defaults, transforms), or the strings as sent. */
function checked(name: string, args: Record<string, unknown>, verdict: Verdict): Record<string, unknown> {
  if (verdict instanceof Accepted) return verdict.value as Record<string, unknown>;
  if (verdict === undefined) return args;
  throw invalidParams(
    `arguments of prompt ${name}: ${verdict.pointer || '/'} ${verdict.message}`,
    `/params/arguments${verdict.pointer}`,
  );
}

function runPrompt(
  req: MethodContext,
  entry: PromptEntry,
  name: string,
  args: Record<string, unknown>,
): unknown {
  return andThen(entry.handler(args, req), (out) => {
    if (Array.isArray(out)) return { messages: out };
    if (typeof out === 'object' && out !== null && Array.isArray((out as { messages?: unknown }).messages))
      return out;
    throw new Error(`prompt ${name} returned neither { messages } nor an array of messages`);
  });
}

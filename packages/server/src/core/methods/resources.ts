/** resources/read, resources/subscribe and unsubscribe. */

import { ErrorCode, McpError } from '../errors.js';
import type { MethodContext } from '../host.js';
import { andThen, requireString } from '../params.js';

export function readResource(req: MethodContext): unknown {
  const uri = requireString(req.params, 'uri', 'resources/read');
  const server = req.session.server;
  const entry = server.resources.get(uri);
  if (entry !== undefined) return andThen(entry.read(uri, req), (out) => normalize(out, uri));
  for (const template of server.templates.entries.values()) {
    const variables = template.template.match(uri);
    if (variables !== undefined)
      return andThen(template.read(uri, variables, req), (out) => normalize(out, uri));
  }
  throw new McpError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
}

function normalize(out: unknown, uri: string): unknown {
  if (Array.isArray(out)) return { contents: out };
  if (typeof out === 'object' && out !== null && Array.isArray((out as { contents?: unknown }).contents))
    return out;
  throw new Error(`the reader of ${uri} returned neither { contents } nor an array of contents`);
}

export function subscribe(req: MethodContext): unknown {
  req.session.subscriptions.add(requireString(req.params, 'uri', 'resources/subscribe'));
  return {};
}

export function unsubscribe(req: MethodContext): unknown {
  req.session.subscriptions.delete(requireString(req.params, 'uri', 'resources/unsubscribe'));
  return {};
}

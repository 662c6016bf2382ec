/** resources/list, resources/templates/list, resources/read, resources/subscribe and unsubscribe. */

import { ErrorCode, McpError } from '../errors.js';
import type { MethodContext } from '../host.js';
import { page } from '../pagination.js';
import { andThen, requireString } from './params.js';

export function listResources(req: MethodContext): unknown {
  const server = req.session.server;
  return page('resources', server.resources.list(), req.params?.cursor, server.options.pageSize);
}

export function listTemplates(req: MethodContext): unknown {
  const server = req.session.server;
  return page('resourceTemplates', server.templates.list(), req.params?.cursor, server.options.pageSize);
}

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

function requireSubscribe(req: MethodContext, method: string): string {
  if (!req.session.server.options.subscribe) {
    throw new McpError(
      ErrorCode.MethodNotFound,
      `Method not found: ${method} (resource subscriptions are not enabled)`,
    );
  }
  return requireString(req.params, 'uri', method);
}

export function subscribe(req: MethodContext): unknown {
  req.session.subscriptions.add(requireSubscribe(req, 'resources/subscribe'));
  return {};
}

export function unsubscribe(req: MethodContext): unknown {
  req.session.subscriptions.delete(requireSubscribe(req, 'resources/unsubscribe'));
  return {};
}

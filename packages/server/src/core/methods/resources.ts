/**
 * resources/read, resources/subscribe and unsubscribe. A subscription to a URI the caller may not
 * see is taken as one to an unknown URI is: accepted, and no update of it is ever sent.
 */

import type { MethodContext } from '../host.js';
import { andThen, requireString } from '../params.js';
import { requireReadable } from '../visibility/lookup.js';

export function readResource(req: MethodContext): unknown {
  const uri = requireString(req.params, 'uri', 'resources/read');
  const found = requireReadable(req.session.server, req, uri);
  const out =
    found.resource !== undefined
      ? found.resource.read(uri, req)
      : found.template.read(uri, found.variables, req);
  return andThen(out, (contents) => normalize(contents, uri));
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

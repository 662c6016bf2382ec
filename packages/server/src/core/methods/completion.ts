/** completion/complete for prompt arguments and resource template variables. */

import type { Completer } from '../handler-types.js';
import type { MethodContext } from '../host.js';
import { andThen, invalidParams, optionalObject } from '../params.js';
import { promptFor, templateFor } from '../visibility/lookup.js';

const MAX_VALUES = 100;

export function complete(req: MethodContext): unknown {
  const server = req.session.server;
  const ref = optionalObject(req.params, 'ref', 'completion/complete');
  const argument = optionalObject(req.params, 'argument', 'completion/complete');
  if (ref === undefined) throw invalidParams('completion/complete needs params.ref', '/params/ref');
  if (argument === undefined || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
    throw invalidParams(
      'completion/complete needs params.argument with string name and value',
      '/params/argument',
    );
  }
  let completers: Record<string, Completer> | undefined;
  if (ref.type === 'ref/prompt') {
    completers = promptFor(server, req, ref.name, '/params/ref/name').complete;
  } else if (ref.type === 'ref/resource') {
    completers = templateFor(server, req, ref.uri).complete;
  } else {
    throw invalidParams('params.ref.type must be "ref/prompt" or "ref/resource"', '/params/ref/type');
  }
  const completer = completers?.[argument.name];
  if (completer === undefined) return { completion: { values: [], total: 0, hasMore: false } };
  const context = optionalObject(req.params, 'context', 'completion/complete');
  const filled = (context?.arguments ?? {}) as Record<string, string>;
  return andThen(completer(argument.value, { arguments: filled, client: req.client }), (values) => {
    if (!Array.isArray(values)) throw new Error(`the completer for "${argument.name}" returned no array`);
    return {
      completion: {
        values: values.slice(0, MAX_VALUES),
        total: values.length,
        hasMore: values.length > MAX_VALUES,
      },
    };
  });
}

/**
 * The one place request middleware runs, for both eras: the layers in the order added, each matched
 * when the chain reaches it, then the method. `next()` runs the rest of the chain at most once; a layer
 * must answer with a result object. Request hooks' `before` functions are layers too (see hookLayer).
 */

import { LocalError } from '../errors.js';
import type { RequestHook } from '../extension-types.js';
import { isThenable } from '../later.js';
import type { Middleware, MiddlewareContext, MiddlewareMatch } from './types.js';

/** One middleware with what it runs for. */
export interface Layer {
  readonly run: Middleware;
  /** How errors name it: the function's name, or its position. */
  readonly label: string;
  readonly methods: ReadonlySet<string> | undefined;
  readonly tool: ((name: string, ctx: MiddlewareContext<'tools/call'>) => boolean) | undefined;
}

/** A request as the chain runs it. */
export interface ChainRequest extends MiddlewareContext {
  /** Answered, cancelled, timed out or dropped. */
  readonly finished: boolean;
}

const MATCH_KEYS = new Set(['method', 'tool']);

/** Check what `server.use` was given and make its layer; `position` names an anonymous middleware. */
export function layerOf(match: MiddlewareMatch | undefined, run: unknown, position: number): Layer {
  if (typeof run !== 'function') {
    throw new LocalError('INVALID_ARGUMENT', `server.use needs a middleware function, got ${describe(run)}`);
  }
  const label = run.name === '' ? `#${position + 1}` : `"${run.name}"`;
  if (match === undefined) return { run: run as Middleware, label, methods: undefined, tool: undefined };
  if (typeof match !== 'object' || match === null || Array.isArray(match)) {
    throw new LocalError(
      'INVALID_ARGUMENT',
      `server.use(match, middleware): match must be an object, got ${describe(match)}`,
    );
  }
  for (const key of Object.keys(match)) {
    if (!MATCH_KEYS.has(key)) {
      throw new LocalError(
        'INVALID_ARGUMENT',
        `server.use(match, middleware): unknown match key "${key}" (use method or tool)`,
      );
    }
  }
  let methods = match.method === undefined ? undefined : new Set(namesOf(match.method, 'method'));
  const tool = match.tool === undefined ? undefined : toolTest(match.tool);
  if (tool !== undefined) {
    if (methods !== undefined && (methods.size !== 1 || !methods.has('tools/call'))) {
      throw new LocalError(
        'INVALID_ARGUMENT',
        'server.use(match, middleware): match.tool applies to tools/call only',
      );
    }
    methods = new Set(['tools/call']);
  }
  return { run: run as Middleware, label, methods, tool };
}

function namesOf(value: unknown, key: string): string[] {
  const names = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(names) || names.length === 0 || names.some((n) => typeof n !== 'string' || n === '')) {
    throw new LocalError(
      'INVALID_ARGUMENT',
      `server.use(match, middleware): match.${key} must be a name or a non-empty array of names, got ${describe(value)}`,
    );
  }
  return names as string[];
}

function toolTest(tool: unknown): Layer['tool'] {
  if (typeof tool === 'function') return tool as Layer['tool'];
  const names = new Set(namesOf(tool, 'tool'));
  return (name) => names.has(name);
}

/** A hook's `before` as a layer: it runs where the hook was added and refuses by throwing. */
export function hookLayer(hook: RequestHook): Layer | undefined {
  const before = hook.before;
  if (before === undefined) return undefined;
  const run: Middleware = (ctx, next) => {
    const out = before.call(hook, ctx);
    return isThenable(out) ? Promise.resolve(out).then(() => next()) : next();
  };
  return { run, label: 'request hook', methods: undefined, tool: undefined };
}

/**
 * Run `layers` around `method` for `req`: resolves with the result the outermost layer returns. The
 * method does not start when the request ended (cancelled, timed out) before the chain reached it.
 */
export function runChain<R extends ChainRequest>(
  layers: readonly Layer[],
  req: R,
  method: (req: R) => unknown,
): Promise<unknown> {
  const dispatch = (from: number): Promise<unknown> => {
    let i = from;
    try {
      while (i < layers.length && !matches(layers[i] as Layer, req)) i++;
    } catch (error) {
      return Promise.reject(error);
    }
    const layer = layers[i];
    if (layer === undefined) return inner(req, method);
    let called = false;
    const next = (): Promise<unknown> => {
      if (called) {
        return Promise.reject(
          new Error(
            `middleware ${layer.label} called next() twice while serving ${req.method}; call it once, or not at all to answer by itself`,
          ),
        );
      }
      called = true;
      return dispatch(i + 1);
    };
    let out: unknown;
    try {
      out = layer.run(req, next as never);
    } catch (error) {
      return Promise.reject(error);
    }
    if (isThenable(out)) return Promise.resolve(out).then((value) => checked(value, layer, req));
    try {
      return Promise.resolve(checked(out, layer, req));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return dispatch(0);
}

function matches(layer: Layer, req: ChainRequest): boolean {
  if (layer.methods !== undefined && !layer.methods.has(req.method)) return false;
  if (layer.tool === undefined) return true;
  const name = req.tool;
  return name !== undefined && layer.tool(name, req as unknown as MiddlewareContext<'tools/call'>);
}

function inner<R extends ChainRequest>(req: R, method: (req: R) => unknown): Promise<unknown> {
  if (req.finished) {
    return Promise.reject(
      new LocalError('CLOSED', `${req.method} ended before the method ran (cancelled or timed out)`),
    );
  }
  try {
    return Promise.resolve(method(req));
  } catch (error) {
    return Promise.reject(error);
  }
}

function checked(value: unknown, layer: Layer, req: ChainRequest): unknown {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  throw new Error(
    `middleware ${layer.label} answered ${req.method} with ${describe(value)} instead of a result object (return what next() resolved to, or a result of your own)`,
  );
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value === 'function' ? 'a function' : String(value);
}

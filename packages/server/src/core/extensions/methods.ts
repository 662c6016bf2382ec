/**
 * `server.addMethod` and `server.addNotification`: a custom method becomes one more entry of the
 * server's method tables (one per era it is served in), its params checked by the same schema
 * machinery as tool arguments; a custom notification joins the extension registry.
 */

import { LocalError } from '../errors.js';
import type {
  MethodDefinition,
  MethodHandler,
  NotificationContext,
  NotificationDefinition,
  NotificationHandler,
} from '../extension-types.js';
import type { Era, Registration } from '../handler-types.js';
import type { MethodContext, MethodRun, MethodSpec, NotificationEntry, ServerHost } from '../host.js';
import { isThenable } from '../later.js';
import { andThen, invalidParams } from '../params.js';
import { requireFunction } from '../registrations.js';
import type { ToolSchema } from '../schema-types.js';
import { Accepted, type CompiledToolSchema, compileOptionalSchema, type Verdict } from '../tool-schema.js';
import { missingExtension } from './client.js';

const ERAS: readonly Era[] = ['legacy', 'modern'];
/** Notifications the core handles itself. */
const BUILT_IN_NOTIFICATIONS = new Set(['notifications/cancelled', 'notifications/initialized']);
const METHOD_NAME = /^[A-Za-z0-9_.:/-]{1,200}$/;

function checkName(method: unknown, what: string): string {
  if (typeof method !== 'string' || !METHOD_NAME.test(method)) {
    throw new LocalError(
      'INVALID_ARGUMENT',
      `${what} must be 1-200 letters, digits or "_.:/-", got ${JSON.stringify(method)}`,
    );
  }
  return method;
}

function erasOf(eras: readonly Era[] | undefined, method: string): readonly Era[] {
  if (eras === undefined) return ERAS;
  if (!Array.isArray(eras) || eras.length === 0 || eras.some((e) => !ERAS.includes(e))) {
    throw new LocalError(
      'INVALID_ARGUMENT',
      `the eras of "${method}" must be a non-empty list of "legacy", "modern"`,
    );
  }
  return eras;
}

/** A definition with `changes` applied; the method itself cannot change. */
function changed<D extends { method: string }>(definition: D, changes: Partial<D>, method: string): D {
  if ('method' in changes && changes.method !== method) {
    throw new LocalError('INVALID_ARGUMENT', `update() cannot rename "${method}"; remove it and add another`);
  }
  return { ...definition, ...changes };
}

/** The params a handler sees: without `_meta` (transport and protocol data, not the method's). */
function ownParams(params: Record<string, unknown> | undefined): Record<string, unknown> {
  if (params === undefined) return {};
  if (!Object.hasOwn(params, '_meta')) return params;
  const { _meta, ...rest } = params;
  return rest;
}

/** Check `params`, then call `next` with what the schema made of them; -32602 names what is wrong. */
function withChecked<R>(
  compiled: CompiledToolSchema | undefined,
  method: string,
  params: Record<string, unknown>,
  next: (value: Record<string, unknown>) => R,
): R | PromiseLike<R> {
  if (compiled === undefined) return next(params);
  return andThen(compiled.check(params), (verdict: Verdict) => {
    if (verdict instanceof Accepted) return next(verdict.value as Record<string, unknown>);
    if (verdict === undefined) return next(params);
    throw invalidParams(
      `${method}: ${verdict.pointer || '/'} ${verdict.message}`,
      `/params${verdict.pointer}`,
    );
  });
}

function checkResult(method: string, result: unknown): Record<string, unknown> {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) {
    throw new Error(
      `the handler of ${method} returned ${Array.isArray(result) ? 'an array' : typeof result}, not an object`,
    );
  }
  return result as Record<string, unknown>;
}

export function addMethodTo<P extends ToolSchema | undefined>(
  server: ServerHost,
  definition: MethodDefinition<P>,
  handler: MethodHandler<P>,
): Registration<MethodDefinition<P>, MethodHandler<P>> {
  const method = checkName(definition?.method, 'a method name');
  const build = (d: MethodDefinition<P>, h: MethodHandler<P>): { spec: MethodSpec; eras: readonly Era[] } => {
    requireFunction(h, `the handler of "${method}"`);
    const eras = erasOf(d.eras, method);
    const extension = d.extension;
    if (extension !== undefined && !server.extensions.has(extension)) {
      throw new LocalError(
        'CAPABILITY_NOT_DECLARED',
        `"${method}" needs extension "${extension}", which the server does not declare (server.declareExtension first)`,
      );
    }
    if (d.nameParam !== undefined && typeof d.nameParam !== 'string') {
      throw new LocalError('INVALID_ARGUMENT', `the nameParam of "${method}" must be a string`);
    }
    const compiled = compileOptionalSchema(d.params, `params schema of method "${method}"`, 'input');
    const run: MethodRun = (req: MethodContext) => {
      if (extension !== undefined && req.clientExtension(extension) === undefined) {
        throw missingExtension(extension, method);
      }
      return withChecked(compiled, method, ownParams(req.params), (params) => {
        const out = h(params as Parameters<MethodHandler<P>>[0], req);
        return isThenable(out) ? out.then((r) => checkResult(method, r)) : checkResult(method, out);
      });
    };
    return { spec: { run, scheduled: d.scheduled ?? true }, eras };
  };
  const tables = (eras: readonly Era[]) =>
    eras.map((e) => (e === 'modern' ? server.modernMethods : server.methods));
  let current = { definition, handler, ...build(definition, handler) };
  for (const table of tables(current.eras)) {
    if (table.has(method)) throw new LocalError('DUPLICATE_METHOD', `method "${method}" is already served`);
  }
  const install = (): void => {
    for (const table of tables(current.eras)) table.set(method, current.spec);
    if (current.definition.nameParam !== undefined)
      server.extensions.nameParams.set(method, current.definition.nameParam);
  };
  const uninstall = (): void => {
    for (const table of tables(current.eras)) if (table.get(method) === current.spec) table.delete(method);
    server.extensions.nameParams.delete(method);
  };
  install();
  return {
    remove: uninstall,
    update(changes, nextHandler) {
      const next = {
        definition: changed(current.definition, changes, method),
        handler: nextHandler ?? current.handler,
      };
      const built = build(next.definition, next.handler);
      uninstall();
      current = { ...next, ...built };
      install();
    },
  };
}

export function addNotificationTo<P extends ToolSchema | undefined>(
  server: ServerHost,
  definition: NotificationDefinition<P>,
  handler: NotificationHandler<P>,
): Registration<NotificationDefinition<P>, NotificationHandler<P>> {
  const method = checkName(definition?.method, 'a notification method');
  const build = (d: NotificationDefinition<P>, h: NotificationHandler<P>): NotificationEntry => {
    requireFunction(h, `the handler of "${method}"`);
    const compiled = compileOptionalSchema(d.params, `params schema of notification "${method}"`, 'input');
    return {
      eras: erasOf(d.eras, method),
      run: (params: Record<string, unknown> | undefined, ctx: NotificationContext) =>
        withChecked(compiled, method, ownParams(params), (checked) =>
          h(checked as Parameters<NotificationHandler<P>>[0], ctx),
        ),
    };
  };
  const table = server.extensions.notifications;
  if (BUILT_IN_NOTIFICATIONS.has(method) || table.has(method))
    throw new LocalError('DUPLICATE_METHOD', `notification "${method}" is already handled`);
  let current = { definition, handler, entry: build(definition, handler) };
  table.set(method, current.entry);
  return {
    remove() {
      if (table.get(method) === current.entry) table.delete(method);
    },
    update(changes, nextHandler) {
      const nextDefinition = changed(current.definition, changes, method);
      const nextH = nextHandler ?? current.handler;
      const entry = build(nextDefinition, nextH);
      current = { definition: nextDefinition, handler: nextH, entry };
      table.set(method, entry);
    },
  };
}

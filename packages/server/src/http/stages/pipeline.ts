/**
 * The Streamable HTTP endpoint as a list of named stages over the request view and the response sink:
 * front door (path, Host/Origin, CORS, method) → authenticate → per-client admission → read body →
 * classify → route to a session and dispatch (or the 2026-07-28 exchange), where the core admits the
 * request (its rate limit). GET opens a stream, DELETE ends a session. A stage refuses by throwing;
 * `answerFailure` is the one exit.
 */

import { postModern } from '../modern/modern-post.js';
import type { ResponseSink } from '../seam/sink.js';
import type { HttpRequest } from '../seam/view.js';
import type { SessionHost } from '../sessions/host.js';
import { runAuth } from './auth.js';
import { type Caller, callerOf } from './caller.js';
import { classify } from './classify.js';
import { dispatch, dispatchBatch } from './dispatch.js';
import { answerFailure } from './failure.js';
import { type EndpointMethod, frontDoor } from './front-door.js';
import { readBody } from './read-body.js';
import { endSession, openStream } from './streams.js';

/** Serve one request. Synchronous up to the body read when no auth hook runs. */
export function serveRequest(host: SessionHost, req: HttpRequest, res: ResponseSink): void {
  let method: EndpointMethod | undefined;
  try {
    method = frontDoor(req, res, host.opts);
  } catch (failure) {
    answerFailure(res, failure, host.report);
    return;
  }
  if (method !== undefined)
    stages(host, req, res, method).catch((failure) => answerFailure(res, failure, host.report));
}

async function stages(host: SessionHost, req: HttpRequest, res: ResponseSink, method: EndpointMethod) {
  const caller =
    host.opts.auth === undefined
      ? callerOf(req, undefined, false, host.limits)
      : await authenticate(host, req);
  host.limits.admit(caller.client, res);
  if (method === 'GET') return openStream(host, req, res, caller.principal);
  if (method === 'DELETE') return endSession(host, req, res, caller.principal);
  const body = await readBody(req, host.opts);
  if (!host.drain.admits(body)) host.drain.refuse();
  const route = classify(req, body);
  if (route.era !== 'modern' && route.batch !== undefined)
    return dispatchBatch(host, req, res, route.batch, caller, route.version);
  const served =
    route.era === 'modern'
      ? postModern(host.server, req, res, body, caller, host.modern)
      : dispatch(host, req, res, route.message, route.kind, caller, route.version);
  // A refusal of the core (the request's rate limit) is answered with the request's id.
  const id = (body as { id?: unknown } | null)?.id;
  return served.catch((failure) => answerFailure(res, failure, host.report, id));
}

async function authenticate(host: SessionHost, req: HttpRequest): Promise<Caller> {
  const auth = host.opts.auth;
  const info = auth === undefined ? undefined : await runAuth(req, auth, host.opts.path);
  return callerOf(req, info, auth !== undefined, host.limits);
}

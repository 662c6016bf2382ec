/**
 * The GET and DELETE stages: open (or resume) a session's SSE stream, or a 2026-07-28 call's by its
 * token; end a session. While draining, only a resumption of work running here is served.
 */

import { parseCallToken } from '../modern/modern-calls.js';
import { refuse } from '../seam/refusal.js';
import type { ResponseSink } from '../seam/sink.js';
import type { HttpRequest } from '../seam/view.js';
import type { SessionHost } from '../sessions/host.js';
import { checkVersion } from './classify.js';
import { accepts } from './guards.js';

export async function openStream(
  host: SessionHost,
  req: HttpRequest,
  res: ResponseSink,
  principal: string | undefined,
): Promise<void> {
  if (!accepts(req.header('accept'), 'text/event-stream')) {
    const message = 'Not Acceptable: the Accept header must list text/event-stream';
    refuse({ status: 406, code: -32000, message });
  }
  const { drain, calls } = host;
  const lastEventId = req.header('last-event-id');
  const sessionId = req.header('mcp-session-id');
  if (sessionId === undefined && lastEventId !== undefined && parseCallToken(lastEventId) !== undefined) {
    if (drain.draining && !calls.isHere(lastEventId)) drain.refuse();
    return calls.resume(req, res, principal);
  }
  checkVersion(req);
  if (drain.draining) {
    // Only a resumption of a call running here finishes work: any other stream is taken elsewhere.
    const here = sessionId === undefined ? undefined : host.sessions.owned(sessionId, principal);
    const stream = lastEventId === undefined ? '' : lastEventId.slice(0, lastEventId.lastIndexOf('.'));
    if (here?.carriesCall(stream) !== true) drain.refuse();
  }
  const transport = await host.existing(sessionId, principal);
  await transport.openStream(req, res);
}

export async function endSession(
  host: SessionHost,
  req: HttpRequest,
  res: ResponseSink,
  principal: string | undefined,
): Promise<void> {
  checkVersion(req);
  const transport = await host.existing(req.header('mcp-session-id'), principal);
  await host.shared?.end(transport);
  await transport.close();
  res.writeHead(200, { 'content-length': '0' }).end();
}

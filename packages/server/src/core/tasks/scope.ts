/**
 * Whose a task is: the authenticated principal's when there is one; otherwise the 2025 HTTP
 * session's, or the connection's (stdio, in memory); on a connection that carries one exchange
 * (stateless or 2026-07-28 HTTP without auth) the client address's, as the HTTP per-client limits
 * see it (`a:<address>`, behind a trusted proxy the forwarded one), or, where no address is known (a
 * fetch handler), nobody's in particular: whoever holds the unguessable id. Another owner asking for
 * a task id gets "not found"; the running-tasks limit counts per owner.
 */

/** What says whose a request is (a request, `MethodContext`, has it all). */
export interface Requester {
  readonly principal: string | undefined;
  readonly sessionId: string | undefined;
  readonly session: { readonly ephemeral: boolean; readonly connectionKey: string };
  readonly context: { readonly client?: string } | undefined;
}

export function ownerOf(req: Requester): string {
  if (req.principal !== undefined) return `p:${req.principal}`;
  if (req.sessionId !== undefined) return `s:${req.sessionId}`;
  if (req.session.ephemeral) return req.context?.client ?? 'anonymous';
  return `c:${req.session.connectionKey}`;
}

/** Whether tasks of `owner` die with the connection (nobody could ask for them afterwards). */
export function ownedByConnection(owner: string): boolean {
  return owner.startsWith('c:');
}

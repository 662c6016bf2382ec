/**
 * Per-tool scopes: which scopes a JSON-RPC message needs that the caller's token lacks. Tools
 * declare `scopes`; a `tools/call` for one needs all of them (RFC 6750 insufficient_scope).
 */

/** What the check needs of a server: its tools' declared scopes (McpServer fits). */
export interface ScopedTools {
  readonly tools?: { get(name: string): { readonly scopes?: readonly string[] | undefined } | undefined };
}

/**
 * The scopes `message` requires when the caller (`auth`, what the authenticate hook returned)
 * lacks some of them; undefined when it may go on. A caller's grants are `auth.scopes` (none
 * when it has no such array).
 */
export function missingScopes(server: ScopedTools, message: unknown, auth: unknown): string[] | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const m = message as { method?: unknown; params?: { name?: unknown } };
  if (m.method !== 'tools/call' || typeof m.params?.name !== 'string') return undefined;
  const required = server.tools?.get(m.params.name)?.scopes;
  if (required === undefined || required.length === 0) return undefined;
  const granted = (auth as { scopes?: unknown } | null | undefined)?.scopes;
  const have = Array.isArray(granted) ? granted : [];
  return required.every((s) => have.includes(s)) ? undefined : [...required];
}

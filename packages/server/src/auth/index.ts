/** `@entropic-mcp/server/auth`: bearer-token verification and per-tool scopes, free of transport types. */

export type {
  BearerVerdict,
  BearerVerifier,
  BearerVerifierOptions,
  StaticToken,
  TokenInfo,
} from './bearer.js';
export { createBearerVerifier } from './bearer.js';
export type { ScopedTools } from './scopes.js';
export { missingScopes } from './scopes.js';

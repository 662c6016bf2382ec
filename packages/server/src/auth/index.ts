/**
 * `@entropic-mcp/server/auth`: bearer-token verification and the principal key, free of
 * transport types.
 */

export type {
  BearerVerdict,
  BearerVerifier,
  BearerVerifierOptions,
  StaticToken,
  TokenInfo,
} from './bearer.js';
export { createBearerVerifier } from './bearer.js';
export { principalOf } from './principal.js';

/**
 * A local JWT issuer for serve tests: the server package's test issuer (a JWKS over real HTTP and a signer), and
 * the `serve` options that make a serve process trust it for one audience.
 */
import { startIssuer, type TestIssuer } from '../../../server/test/support/jwks.js';

export { startIssuer, type TestIssuer };

/** `--auth-jwks URL --auth-issuer ISS --auth-audience AUD` for `issuer`. */
export function jwtAuthArgs(issuer: TestIssuer, audience: string): string[] {
  return ['--auth-jwks', issuer.jwksUrl, '--auth-issuer', issuer.issuer, '--auth-audience', audience];
}

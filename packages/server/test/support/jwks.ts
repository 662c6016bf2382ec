/** A local authorization server's keys for tests: a JWKS served over real HTTP and a token signer. */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';

export interface TestIssuer {
  readonly issuer: string;
  readonly jwksUrl: string;
  /** How many times the key set was fetched. */
  readonly fetches: () => number;
  /** A token signed with the published key unless `forge` (same kid, another key). */
  sign(claims: JWTPayload, options?: { expiresIn?: string | number; forge?: boolean }): Promise<string>;
  close(): Promise<void>;
}

export async function startIssuer(): Promise<TestIssuer> {
  const real = await generateKeyPair('ES256');
  const forged = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(real.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  let fetches = 0;
  const server: Server = createServer((req, res) => {
    if (req.url !== '/jwks.json') {
      res.writeHead(404).end();
      return;
    }
    fetches++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer: base,
    jwksUrl: `${base}/jwks.json`,
    fetches: () => fetches,
    sign(claims, options = {}) {
      return new SignJWT({ iss: base, ...claims })
        .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' })
        .setIssuedAt()
        .setExpirationTime(options.expiresIn ?? '5m')
        .sign(options.forge === true ? forged.privateKey : real.privateKey);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

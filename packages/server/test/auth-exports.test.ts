// Pins the public surface of @entropic-mcp/server/auth.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { typeOnlyExports } from './support/declared-exports.js';

describe('public surface of @entropic-mcp/server/auth', () => {
  it('exports exactly the documented names', async () => {
    const auth = await import('@entropic-mcp/server/auth');
    expect(Object.keys(auth).sort()).toEqual(['createBearerVerifier', 'principalOf']);
  });

  it('declares exactly these type-only names', async () => {
    const entry = await import('@entropic-mcp/server/auth');
    const dts = fileURLToPath(new URL('../dist/auth/index.d.ts', import.meta.url));
    expect(typeOnlyExports(dts, entry)).toEqual([
      'BearerVerdict',
      'BearerVerifier',
      'BearerVerifierOptions',
      'StaticToken',
      'TokenInfo',
    ]);
  });
});

// Pins the public surface of @entropic-mcp/server/auth.
import { describe, expect, it } from 'vitest';

describe('public surface of @entropic-mcp/server/auth', () => {
  it('exports exactly the documented names', async () => {
    const auth = await import('@entropic-mcp/server/auth');
    expect(Object.keys(auth).sort()).toEqual(['createBearerVerifier', 'missingScopes', 'principalOf']);
  });
});

// Pins the public surface of @entropic-mcp/server/http.
import { describe, expect, it } from 'vitest';

describe('public surface of @entropic-mcp/server/http', () => {
  it('exports exactly the documented names', async () => {
    const http = await import('@entropic-mcp/server/http');
    expect(Object.keys(http).sort()).toEqual([
      'DEFAULT_MAX_BODY_BYTES',
      'HeadHold',
      'HttpServerTransport',
      'MemoryEventStore',
      'MemoryMessageHub',
      'MemorySessionRegistry',
      'PRM_PATH',
      'bearerAuth',
      'createMcpHttpHandler',
      'serveHttp',
    ]);
    expect(http.DEFAULT_MAX_BODY_BYTES).toBe(4 * 1024 * 1024);
    expect(http.PRM_PATH).toBe('/.well-known/oauth-protected-resource');
  });
});

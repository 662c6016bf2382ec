// Pins the public surface of @entropic-mcp/server/http.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { typeOnlyExports } from './support/declared-exports.js';

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

  it('declares exactly these type-only names', async () => {
    const entry = await import('@entropic-mcp/server/http');
    const dts = fileURLToPath(new URL('../dist/http/index.d.ts', import.meta.url));
    expect(typeOnlyExports(dts, entry)).toEqual([
      'AppendOptions',
      'AuthRefusal',
      'ConnectableServer',
      'CorsOptions',
      'EventStore',
      'Flushable',
      'HttpAuthOptions',
      'HttpCloseOptions',
      'HttpServerHandle',
      'HttpTransportConfig',
      'McpHttpHandler',
      'McpHttpHandlerOptions',
      'MemoryEventStoreOptions',
      'MessageRouter',
      'ProtectedResourceMetadata',
      'ReplayedEvents',
      'RoutedMessage',
      'ServeHttpOptions',
      'SessionRecord',
      'SessionRegistry',
      'SharedSessionState',
      'StoredEvent',
    ]);
  });
});

/** Pins the public surface of the built package, entry by entry. */

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { typeOnlyExports } from './support/declared-exports.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The built declarations of an entry (`index`, `stdio/index`, …). */
const dts = (entry: string) => join(root, 'dist', `${entry}.d.ts`);

describe('public surface', () => {
  it('the main entry exports exactly the documented names', async () => {
    const main = await import('@entropic-mcp/server');
    expect(Object.keys(main).sort()).toEqual([
      'ErrorCode',
      'InMemorySubscriptionBus',
      'InMemoryTransport',
      'LATEST_PROTOCOL_VERSION',
      'Later',
      'LocalError',
      'McpError',
      'McpServer',
      'McpServerError',
      'MemoryRateLimitStore',
      'MemoryTaskStore',
      'PreparedJson',
      'REDACTED',
      'RateLimited',
      'RawJson',
      'SUPPORTED_PROTOCOL_VERSIONS',
      'SecretMasker',
      'ToolError',
      'audio',
      'createInMemoryTransportPair',
      'image',
      'isSubscriptionEvent',
      'maskSecrets',
      'redact',
      'resource',
      'resourceLink',
      'text',
    ]);
  });

  it('the main entry declares exactly these type-only names', async () => {
    const main = await import('@entropic-mcp/server');
    expect(typeOnlyExports(dts('index'), main)).toEqual([
      'Annotations',
      'AudioContent',
      'AuthInfo',
      'Awaitable',
      'BlobResourceContents',
      'Caller',
      'CapabilityOptions',
      'ClientCapabilities',
      'ClientContext',
      'Completer',
      'CompletionContext',
      'ConnectOptions',
      'ContentBlock',
      'CreateMessageParams',
      'CreateMessageResult',
      'ElicitResult',
      'EmbeddedResource',
      'Era',
      'FinishedLimits',
      'GetPromptResult',
      'HandlerContext',
      'Icon',
      'ImageContent',
      'Implementation',
      'InMemoryTransportOptions',
      'JsonRpcMessage',
      'JsonSchema',
      'LaterListener',
      'LocalErrorCode',
      'LogLevel',
      'MaskedStream',
      'MessageContext',
      'MethodDefinition',
      'MethodHandler',
      'Middleware',
      'MiddlewareContext',
      'MiddlewareMatch',
      'MiddlewareMethods',
      'MiddlewareParams',
      'MiddlewareResult',
      'Next',
      'NotificationContext',
      'NotificationDefinition',
      'NotificationHandler',
      'PeerRequestOptions',
      'PromptArgs',
      'PromptArgument',
      'PromptDefinition',
      'PromptHandler',
      'PromptMessage',
      'RateCaller',
      'RateLimitOptions',
      'RateLimitStore',
      'RateRule',
      'RateVerdict',
      'ReadResourceResult',
      'Register',
      'Registration',
      'RequestContext',
      'RequestHook',
      'RequestId',
      'RequestOutcome',
      'ResourceContents',
      'ResourceDefinition',
      'ResourceLink',
      'ResourceReader',
      'ResourceTemplateDefinition',
      'Role',
      'Root',
      'SendOptions',
      'ServerInfo',
      'ServerOptions',
      'Session',
      'StandardJsonSchema',
      'StoredTask',
      'SubscriptionBus',
      'SubscriptionEvent',
      'SubscriptionListener',
      'TaskEviction',
      'TaskOptions',
      'TaskPage',
      'TaskRecord',
      'TaskStatus',
      'TaskStore',
      'TaskSupport',
      'TemplateLister',
      'TemplateReader',
      'TextContent',
      'TextResourceContents',
      'TokenInfo',
      'ToolAnnotations',
      'ToolArgs',
      'ToolDefinition',
      'ToolHandler',
      'ToolMatch',
      'ToolResult',
      'ToolSchema',
      'ToolStructured',
      'Transport',
      'UriVariables',
      'Visibility',
      'WireError',
    ]);
  });

  it('the stdio subpath exports the transport and serveStdio', async () => {
    const stdio = await import('@entropic-mcp/server/stdio');
    expect(Object.keys(stdio).sort()).toEqual([
      'DEFAULT_MAX_FRAME_BYTES',
      'StdioServerTransport',
      'serveStdio',
    ]);
  });

  it('the fetch subpath exports createFetchHandler and bearerAuth', async () => {
    const fetchEntry = await import('@entropic-mcp/server/fetch');
    expect(Object.keys(fetchEntry).sort()).toEqual(['bearerAuth', 'createFetchHandler']);
  });

  it('the stdio and fetch subpaths declare exactly these type-only names', async () => {
    const stdio = await import('@entropic-mcp/server/stdio');
    expect(typeOnlyExports(dts('stdio/index'), stdio)).toEqual([
      'ServeStdioOptions',
      'StdioTransportOptions',
    ]);
    const fetchEntry = await import('@entropic-mcp/server/fetch');
    expect(typeOnlyExports(dts('fetch/index'), fetchEntry)).toEqual(['FetchHandler', 'FetchHandlerOptions']);
  });

  it('the protocol core imports nothing from Node', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) files.push(path);
      }
    };
    walk(join(root, 'src', 'core'));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      expect(source, file).not.toMatch(/from ['"](node:|fs|path|stream|net|http|child_process)/);
      expect(source, file).not.toMatch(/\b(process|Buffer|require)\s*[.(]/);
    }
  });
});

/** Pins the public surface of the built package, entry by entry. */

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

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
      'MemoryTaskStore',
      'REDACTED',
      'RawJson',
      'SUPPORTED_PROTOCOL_VERSIONS',
      'ToolError',
      'audio',
      'createInMemoryTransportPair',
      'image',
      'isSubscriptionEvent',
      'redact',
      'resource',
      'resourceLink',
      'text',
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

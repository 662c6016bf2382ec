// The v2 client's era interop cases (2026-07-28 and 2025-11-25) against the fetch handler on a real socket.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll } from 'vitest';
import { createFetchHandler, type FetchHandler } from '../src/fetch/index.js';
import { McpServer } from '../src/index.js';
import { register } from './fixtures/era/tools.mjs';
import { runEraInterop } from './support/era-interop.mjs';
import { type FetchHost, hostFetch } from './support/fetch-host.js';

let handler: FetchHandler;
let host: FetchHost;

beforeAll(async () => {
  handler = createFetchHandler(register(new McpServer({ name: 'era-interop', version: '1.0.0' })));
  host = await hostFetch(handler, '/mcp', () => handler.close());
});

afterAll(async () => {
  await host?.close();
});

runEraInterop({
  name: 'fetch handler',
  transport: () => new StreamableHTTPClientTransport(new URL(host.url)),
});

// The v2 client's era interop cases against the library over real Streamable HTTP.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll } from 'vitest';
import { type HttpServerHandle, serveHttp } from '../src/http/index.js';
import { McpServer } from '../src/index.js';
import { register } from './fixtures/era/tools.mjs';
import { runEraInterop } from './support/era-interop.mjs';

let http: HttpServerHandle;

beforeAll(async () => {
  http = await serveHttp(register(new McpServer({ name: 'era-interop', version: '1.0.0' })));
});

afterAll(async () => {
  await http?.close();
});

runEraInterop({
  name: 'library over Streamable HTTP',
  transport: () => new StreamableHTTPClientTransport(new URL(http.url)),
});

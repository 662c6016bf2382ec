// The v2 client's era interop cases against the built library over stdio (a child process).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { runEraInterop } from './support/era-interop.mjs';

const server = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'era', 'stdio-server.mjs');

runEraInterop({
  name: 'library over stdio',
  transport: () => new StdioClientTransport({ command: process.execPath, args: [server], stderr: 'inherit' }),
});

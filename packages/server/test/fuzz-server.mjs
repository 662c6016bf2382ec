// The server the stdio and HTTP fuzz tests attack, built from dist/ and run as a child process.
//   node test/fuzz-server.mjs                        stdio (frame cap from FUZZ_MAX_FRAME, default 16 MiB)
//   node test/fuzz-server.mjs --http [--stateless]   Streamable HTTP on 127.0.0.1; prints "listening on URL" to stderr
import { McpServer, text } from '../dist/index.js';
import { addFuzzTools } from './fuzz-tools.mjs';

const server = addFuzzTools(
  new McpServer({ name: 'fuzz-target', version: '1.0.0' }, { capabilities: { subscribe: true } }),
  text,
);
if (process.argv.includes('--http')) {
  const { serveHttp } = await import('../dist/http/index.js');
  const handle = await serveHttp(server, { stateless: process.argv.includes('--stateless') });
  process.stderr.write(`listening on ${handle.url}\n`);
} else {
  const { serveStdio } = await import('../dist/stdio/index.js');
  const max = process.env.FUZZ_MAX_FRAME;
  await serveStdio(server, max === undefined ? {} : { maxFrameBytes: Number(max) });
}

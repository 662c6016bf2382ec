#!/usr/bin/env node
// In-process cost of one echo tools/call through the core (no I/O): a transport that parses nothing
// and drops what is sent. Prints ns per call.   node bench/core-dispatch.mjs [--calls N]
import { McpServer, text } from '@entropic-mcp/server';

const at = process.argv.indexOf('--calls');
const calls = at === -1 ? 1_000_000 : Number(process.argv[at + 1]);
const server = new McpServer({ name: 'echo', version: '1.0.0' });
server.addTool(
  {
    name: 'echo',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  (args) => ({ content: [text(args.text)] }),
);
let answered = 0;
const transport = {
  start: async () => {},
  close: async () => {},
  send: () => {
    answered++;
  },
};
await server.connect(transport);
transport.onmessage({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'b', version: '1' } },
});
const round = (n) => {
  const t0 = process.hrtime.bigint();
  for (let i = 1; i <= n; i++) {
    transport.onmessage({
      jsonrpc: '2.0',
      id: i,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'hello' } },
    });
  }
  return Number(process.hrtime.bigint() - t0) / n;
};
round(100_000);
const ns = round(calls);
console.log(`core dispatch: ${ns.toFixed(0)} ns per echo tools/call (${calls} calls, ${answered} answered)`);

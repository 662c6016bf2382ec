// The minimal MCP answers shared by the bare stdio loop and the bare node:http server.

const serverInfo = { name: 'bare-echo', version: '0.0.0' };
const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const modernMeta = { 'io.modelcontextprotocol/serverInfo': serverInfo };

/** Answer one parsed JSON-RPC message; undefined for notifications. */
export function answer(msg) {
  if (msg.id === undefined) return undefined;
  switch (msg.method) {
    case 'tools/call': {
      const content = [{ type: 'text', text: msg.params.arguments.text }];
      // a 2026-07-28 request (enveloped) gets the modern result shape
      const result =
        msg.params._meta?.[VERSION_KEY] === undefined
          ? { content }
          : { content, resultType: 'complete', _meta: modernMeta };
      return { jsonrpc: '2.0', id: msg.id, result };
    }
    case 'initialize':
      return {
        jsonrpc: '2.0',
        id: msg.id,
        result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo },
      };
    case 'ping':
      return { jsonrpc: '2.0', id: msg.id, result: {} };
    default:
      return {
        jsonrpc: '2.0',
        id: msg.id,
        error: { code: -32601, message: `Method not found: ${msg.method}` },
      };
  }
}

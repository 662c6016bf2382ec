// The minimal MCP answers shared by the bare stdio loop and the bare node:http server.

const serverInfo = { name: 'bare-echo', version: '0.0.0' };

/** Answer one parsed JSON-RPC message; undefined for notifications. */
export function answer(msg) {
  if (msg.id === undefined) return undefined;
  switch (msg.method) {
    case 'tools/call':
      return {
        jsonrpc: '2.0',
        id: msg.id,
        result: { content: [{ type: 'text', text: msg.params.arguments.text }] },
      };
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

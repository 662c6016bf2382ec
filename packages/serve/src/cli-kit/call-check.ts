/**
 * What `entropic-mcp call` checks before it calls the plugin: the tool exists, and the arguments match its
 * inputSchema. The arguments are judged by the server runtime itself (the tool registered on an in-memory
 * `McpServer` and called over the protocol), so `call` refuses exactly what `serve` would refuse a client.
 */

import type { PluginTool } from '@entropic-mcp/loader';
import { didYouMean } from '@entropic-mcp/loader/internal';
import { createInMemoryTransportPair, McpServer } from '@entropic-mcp/server';
import { ServeError } from '../config/errors.js';

/** The call was refused before reaching the plugin; the message names the tool or the field. */
export class CallRefused extends ServeError<'ENTROPIC_MCP_CALL_REFUSED'> {
  override readonly name = 'CallRefused';
  constructor(message: string) {
    super('ENTROPIC_MCP_CALL_REFUSED', message);
  }
}

interface RpcAnswer {
  readonly id?: unknown;
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly message: string };
}

/** Sends requests one at a time over the client end and waits for each answer. */
async function exchange(
  server: McpServer,
  requests: readonly { method: string; params: Record<string, unknown> }[],
): Promise<RpcAnswer[]> {
  const [client, serverSide] = createInMemoryTransportPair();
  const answers: RpcAnswer[] = [];
  let waiting: ((answer: RpcAnswer) => void) | undefined;
  client.onmessage = (message) => {
    const answer = message as RpcAnswer;
    if (answer.id !== undefined) waiting?.(answer);
  };
  await client.start();
  await server.connect(serverSide);
  try {
    for (const [index, request] of requests.entries()) {
      const answered = new Promise<RpcAnswer>((resolve) => {
        waiting = resolve;
      });
      client.send({ jsonrpc: '2.0', id: index + 1, ...request });
      answers.push(await answered);
      if (request.method === 'initialize')
        client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    }
  } finally {
    await client.close();
  }
  return answers;
}

function refusal(answer: RpcAnswer | undefined): string | undefined {
  if (answer?.error !== undefined) return answer.error.message;
  const result = answer?.result as { isError?: boolean; content?: { text?: string }[] } | undefined;
  if (result?.isError === true) return result.content?.[0]?.text ?? 'refused';
  return undefined;
}

/** Throws `CallRefused` when the tool is unknown or the arguments do not match its inputSchema. */
export async function checkCall(
  pluginName: string,
  tools: readonly PluginTool[],
  toolName: string,
  args: Record<string, unknown>,
): Promise<void> {
  const tool = tools.find((t) => t.name === toolName);
  if (tool === undefined) {
    const names = tools.map((t) => t.name);
    throw new CallRefused(
      `unknown tool "${toolName}" in plugin ${pluginName}${didYouMean(toolName, names)} ` +
        `(its tools: ${names.join(', ') || 'none'})`,
    );
  }
  const server = new McpServer({ name: 'entropic-mcp-call', version: '0.0.0' });
  try {
    server.addTool({ name: tool.name, inputSchema: tool.inputSchema }, () => ({ content: [] }));
  } catch (error) {
    throw new CallRefused(
      `tool "${tool.name}" has an inputSchema that cannot be used: ${(error as Error).message}`,
    );
  }
  try {
    const [initialized, called] = await exchange(server, [
      {
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'entropic-mcp-call', version: '0.0.0' },
        },
      },
      { method: 'tools/call', params: { name: tool.name, arguments: args } },
    ]);
    const failedStart = refusal(initialized);
    if (failedStart !== undefined) throw new Error(`checking the arguments failed: ${failedStart}`);
    const refused = refusal(called);
    if (refused !== undefined) throw new CallRefused(refused);
  } finally {
    await server.close();
  }
}

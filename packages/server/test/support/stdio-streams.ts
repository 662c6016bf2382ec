/** A ClientHandle over StdioServerTransport on in-process pipes (real streams, real framing). */

import { PassThrough } from 'node:stream';
import type { McpServer } from '../../src/core/server.js';
import type { Session } from '../../src/core/session.js';
import { StdioServerTransport, type StdioTransportOptions } from '../../src/stdio/index.js';
import type { ClientHandle, Message } from './peer.js';
import { MessageQueue } from './queue.js';

export async function connectStdioStreams(
  server: McpServer,
  options: Omit<StdioTransportOptions, 'input' | 'output'> = {},
): Promise<{ handle: ClientHandle; session: Session; input: PassThrough; output: PassThrough }> {
  const input = new PassThrough();
  const output = new PassThrough();
  const queue = new MessageQueue();
  let rest = '';
  output.setEncoding('utf8');
  output.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) if (line.length > 0) queue.push(JSON.parse(line) as Message);
  });
  const transport = new StdioServerTransport({ ...options, input, output });
  const session = await server.connect(transport);
  const sessionClose = transport.onclose;
  transport.onclose = () => {
    sessionClose?.();
    queue.end();
  };
  const handle: ClientHandle = {
    send: (message) => {
      input.write(`${JSON.stringify(message)}\n`);
    },
    sendRaw: (text) => {
      input.write(`${text}\n`);
    },
    next: () => queue.next(),
    close: async () => {
      input.end();
    },
  };
  return { handle, session, input, output };
}

/** `@entropic-mcp/server/stdio`: serve a server over the process's stdin and stdout. */

import type { McpServer } from '../core/server.js';
import type { Session } from '../core/session.js';
import { StdioServerTransport, type StdioTransportOptions } from './transport.js';

export { DEFAULT_MAX_FRAME_BYTES, StdioServerTransport, type StdioTransportOptions } from './transport.js';

export interface ServeStdioOptions extends StdioTransportOptions {
  /** Exit the process once the session has closed (stdin ended) and output is flushed. Default true. */
  exitOnClose?: boolean;
  /**
   * When the output is process.stdout, send console.log/info/debug to stderr so that nothing but
   * the transport writes protocol bytes to stdout. Default true.
   */
  guardStdout?: boolean;
}

function guardConsole(): void {
  const toStderr = console.error.bind(console);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

/** Connect `server` to stdio. Resolves with the session once reading has started. */
export async function serveStdio(server: McpServer, options: ServeStdioOptions = {}): Promise<Session> {
  const output = options.output ?? process.stdout;
  if ((options.guardStdout ?? true) && output === process.stdout) guardConsole();
  const transport = new StdioServerTransport(options);
  const session = await server.connect(transport);
  if (options.exitOnClose ?? true) {
    const sessionClose = transport.onclose;
    transport.onclose = () => {
      sessionClose?.();
      output.write('', () => process.exit(0));
    };
  }
  return session;
}

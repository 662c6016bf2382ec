/** Shared pieces of the serve tests: a real `entropic-mcp serve` child driven by the official SDK client. */

import { CLI, SERVE_ROOT } from '@entropic-mcp/test-kit/serve-process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export {
  buildFixture,
  compileFixture,
  FIXTURE_SOURCES,
  fixture,
  INCLUDE_DIR,
  notAPlugin,
} from '@entropic-mcp/test-kit/c-fixtures';
export {
  alive,
  CLI,
  childPids,
  examplePlugins,
  type HttpServer,
  REPO_ROOT,
  runServe,
  SERVE_ROOT,
  startHttp,
  TASK_TOOLS,
} from '@entropic-mcp/test-kit/serve-process';
export { tempDir } from '@entropic-mcp/test-kit/temp';
export { waitFor } from '@entropic-mcp/test-kit/wait';

export function newClient(): Client {
  return new Client({ name: 'entropic-serve-test', version: '1.0.0' });
}

export interface StdioServer {
  readonly client: Client;
  /** The serve process. */
  readonly pid: number;
  stderr(): string;
  close(): Promise<void>;
}

/** `entropic-mcp serve ARGS` over stdio, driven by the official SDK client. */
export async function connectStdio(
  args: readonly string[],
  cwd = SERVE_ROOT,
  env?: Record<string, string>,
): Promise<StdioServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', ...args],
    cwd,
    stderr: 'pipe',
    ...(env === undefined ? {} : { env: { ...(process.env as Record<string, string>), ...env } }),
  });
  let text = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const client = newClient();
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`could not connect over stdio: ${(error as Error).message}\nserver stderr:\n${text}`);
  }
  return { client, pid: transport.pid as number, stderr: () => text, close: () => client.close() };
}

export async function connectHttp(url: string): Promise<Client> {
  const client = newClient();
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** The text of a tools/call result's first content block. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content[0]?.text ?? '';
}

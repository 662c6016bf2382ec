/** Shared pieces of the loader's tests: fixture plugins compiled here, the example plugins, an SDK client. */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export { buildFixture, compileFixture, INCLUDE_DIR, notAPlugin } from '@entropic-mcp/test-kit/c-fixtures';
export { examplePlugins } from '@entropic-mcp/test-kit/serve-process';
export { tempDir } from '@entropic-mcp/test-kit/temp';

export const LOADER_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const REPO_ROOT = resolve(LOADER_ROOT, '../..');
export function newClient(): Client {
  return new Client({ name: 'entropic-loader-test', version: '1.0.0' });
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

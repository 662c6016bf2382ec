// `serve --tools-module FILE`: load an ES module and let its `register(server)` add tools to the server.
import { pathToFileURL } from 'node:url';
import type { McpServer } from '@entropic-mcp/server';
import { UsageError } from './config/args.js';

/** What a tools module exports. */
export interface ToolsModule {
  register(server: McpServer): unknown;
}

/** Imports `path` and awaits its `register(server)`; a clear error names the file when it cannot. */
export async function registerToolsModule(server: McpServer, path: string): Promise<void> {
  let mod: Partial<ToolsModule>;
  try {
    mod = (await import(pathToFileURL(path).href)) as Partial<ToolsModule>;
  } catch (error) {
    throw new UsageError(`--tools-module ${path} could not be loaded: ${(error as Error).message}`);
  }
  if (typeof mod.register !== 'function') {
    throw new UsageError(`--tools-module ${path} exports no register(server) function`);
  }
  try {
    await mod.register(server);
  } catch (error) {
    throw new Error(`--tools-module ${path}: register(server) failed: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * TypeScript/JavaScript tools served beside the C plugins: `serve --tools-module FILE` imports FILE and
 * hands it the server, so tools that need what the C ABI has no channel for (elicitation, sampling,
 * progress, list changes) live in the same endpoint as the plugins.
 */
import { pathToFileURL } from 'node:url';
import type { McpServer } from '@entropic-mcp/server';
import { ServeError } from '../config/errors.js';
import { type TaskSupportSetting, taskSupportFor } from '../config/tasks.js';

/** What a tools module's `register` (or default export) receives besides the server. */
export interface ToolsModuleContext {
  /** The working directory every plugin was given (`--root`). */
  readonly root: string;
}

/**
 * The function a tools module exports, as `register` or as its default export. It adds tools, resources
 * or prompts to `server`; it may return a cleanup function that runs when serve stops.
 */
export type RegisterTools = (
  server: McpServer,
  context: ToolsModuleContext,
) => void | (() => void | Promise<void>) | Promise<void | (() => void | Promise<void>)>;

/** A tools module that could not be imported or registered; the message names the file. */
export class ToolsModuleError extends ServeError<'ENTROPIC_MCP_TOOLS_MODULE'> {
  override readonly name = 'ToolsModuleError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('ENTROPIC_MCP_TOOLS_MODULE', message, options);
  }
}

/** A loaded module: its file and the cleanup it asked for (a no-op when it returned none). */
export interface LoadedToolsModule {
  readonly file: string;
  close(): Promise<void>;
}

function registerOf(file: string, mod: Record<string, unknown>): RegisterTools {
  const fn = typeof mod.register === 'function' ? mod.register : mod.default;
  if (typeof fn !== 'function') {
    throw new ToolsModuleError(
      `${file}: a tools module must export a function \`register(server, context)\` (named or default)`,
    );
  }
  return fn as RegisterTools;
}

/**
 * The server as a module with a `task_support` setting sees it: its tools get the configured task
 * support (the config wins over what the module declared). Everything else is the server itself.
 */
function withTaskSupport(server: McpServer, setting: TaskSupportSetting | undefined): McpServer {
  if (setting === undefined) return server;
  const addTool: McpServer['addTool'] = (definition, handler) => {
    const support = taskSupportFor(setting, definition.name);
    const configured =
      support === undefined
        ? definition
        : { ...definition, execution: { ...definition.execution, taskSupport: support } };
    return server.addTool(configured as typeof definition, handler);
  };
  return new Proxy(server, {
    get: (target, key, receiver) => (key === 'addTool' ? addTool : Reflect.get(target, key, receiver)),
  });
}

/**
 * Imports each module in order and runs its register function; stops at the first failure.
 * `taskSupport` gives a module's configured task support, by file.
 */
export async function loadToolsModules(
  files: readonly string[],
  server: McpServer,
  context: ToolsModuleContext,
  taskSupport: ReadonlyMap<string, TaskSupportSetting> = new Map(),
): Promise<LoadedToolsModule[]> {
  const loaded: LoadedToolsModule[] = [];
  try {
    for (const file of files) {
      let mod: Record<string, unknown>;
      try {
        mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      } catch (error) {
        throw new ToolsModuleError(`${file}: cannot import the tools module: ${(error as Error).message}`, {
          cause: error,
        });
      }
      const register = registerOf(file, mod);
      let cleanup: unknown;
      try {
        cleanup = await register(withTaskSupport(server, taskSupport.get(file)), context);
      } catch (error) {
        throw new ToolsModuleError(`${file}: register() failed: ${(error as Error).message}`, {
          cause: error,
        });
      }
      loaded.push({
        file,
        close: async () => {
          if (typeof cleanup === 'function') await cleanup();
        },
      });
    }
  } catch (error) {
    await closeToolsModules(loaded);
    throw error;
  }
  return loaded;
}

/** Runs every cleanup, newest module first; a failing cleanup never stops the others. */
export async function closeToolsModules(modules: readonly LoadedToolsModule[]): Promise<void> {
  for (const m of [...modules].reverse()) {
    try {
      await m.close();
    } catch {
      // A module's own cleanup failing must not keep the plugins from closing.
    }
  }
}

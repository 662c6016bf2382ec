/** Registers plugin tools on an MCP server as `<plugin>.<tool>`. */
import { McpServer } from '@entropic-mcp/server';
import { LoaderError } from '../base/errors.js';
import type { CancelHook } from '../base/guard.js';
import type { CallOptions, Plugin, PluginTool } from '../base/types.js';
import { withContext } from './context.js';
import {
  answerToRawResult,
  answerToResult,
  errorToResult,
  PLUGIN_META_KEY,
  PluginToolCall,
} from './result.js';
import type { BridgeToolContext, BridgeToolHandler, MountOptions, ToolHost } from './types.js';

/** A refusal at start-up: two plugins (or a plugin and a TypeScript tool) want the same name. */
export class ToolCollisionError extends LoaderError<'ENTROPIC_MCP_TOOL_COLLISION'> {
  override readonly name = 'ToolCollisionError';
  constructor(message: string) {
    super('ENTROPIC_MCP_TOOL_COLLISION', message);
  }
}

/** The server refused a plugin tool for another reason than its name (an inputSchema it cannot compile...). */
export class ToolRegistrationError extends LoaderError<'ENTROPIC_MCP_TOOL_REJECTED'> {
  override readonly name = 'ToolRegistrationError';
  constructor(
    message: string,
    readonly plugin: Plugin,
    options?: { cause?: unknown },
  ) {
    super('ENTROPIC_MCP_TOOL_REJECTED', message, options);
  }
}

export function toolName(plugin: Plugin, tool: PluginTool): string {
  return `${plugin.name}.${tool.name}`;
}

/**
 * One handler per tool, built once. On our own server a call is one `PluginToolCall` the server waits on (no
 * promise per call) and the plugin's result text is written as it is; any other host gets a promise and plain
 * strings. Cancellation reaches the plugin through the context's `onAbort` hook when the server has one (no
 * AbortSignal per call), else through `ctx.signal`.
 */
function makeHandler(
  plugin: Plugin,
  tool: PluginTool,
  options: MountOptions,
  ownServer: boolean,
): BridgeToolHandler {
  const name = tool.name;
  const { timeoutMs, onDirectives } = options;
  const site = { plugin: plugin.name, tool: name };
  const failed = (error: unknown) => errorToResult(error, plugin.name, name);
  const limits = (ctx: BridgeToolContext): CallOptions =>
    ctx.onAbort === undefined ? { signal: ctx.signal, timeoutMs } : { cancel: ctx as CancelHook, timeoutMs };
  const headers = (options.contextHeaders ?? []).map((h) => h.toLowerCase());
  const callOptions = plugin.usesContext
    ? (ctx: BridgeToolContext) => withContext(limits(ctx), ctx, plugin.name, headers)
    : limits;
  if (onDirectives === undefined && ownServer) {
    return (args, ctx) => {
      const call = new PluginToolCall(site);
      plugin.call(name, args, call, callOptions(ctx));
      return call;
    };
  }
  if (onDirectives === undefined) {
    return (args, ctx) => plugin.execute(name, args, callOptions(ctx)).then(answerToResult, failed);
  }
  return async (args, ctx) => {
    try {
      const answer = await plugin.execute(name, args, callOptions(ctx));
      if (answer.directives.length > 0)
        await onDirectives(answer.directives, { plugin: plugin.name, tool: name, args });
      return ownServer ? answerToRawResult(answer) : answerToResult(answer);
    } catch (error) {
      return failed(error);
    }
  };
}

/** Undoes a registration when the server's `addTool` returned a handle with `remove()`. */
function removerOf(registration: unknown): () => void {
  const remove = (registration as { remove?: unknown } | null | undefined)?.remove;
  return typeof remove === 'function' ? () => remove.call(registration) : () => {};
}

/** The scopes `setting` gives tool `tool`: one list for all, or by tool name (`"*"`: the others). */
function scopesOf(setting: MountOptions['scopes'], tool: string): readonly string[] | undefined {
  if (setting === undefined) return undefined;
  if (isList(setting)) return setting;
  return setting[tool] ?? setting['*'];
}

function isList(value: unknown): value is readonly string[] {
  return Array.isArray(value);
}

function register(
  server: ToolHost,
  plugin: Plugin,
  tool: PluginTool,
  options: MountOptions,
  undo: (() => void)[],
): string {
  const name = toolName(plugin, tool);
  const setting = options.taskSupport;
  const taskSupport = typeof setting === 'string' ? setting : (setting?.[tool.name] ?? setting?.['*']);
  const scopes = scopesOf(options.scopes, tool.name);
  const definition = {
    name,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
    _meta: { [PLUGIN_META_KEY]: { plugin: plugin.name, tool: tool.name } },
    ...(tool.description === undefined ? {} : { description: tool.description }),
    ...(taskSupport === undefined ? {} : { execution: { taskSupport } }),
    ...(scopes === undefined || scopes.length === 0 ? {} : { scopes: [...scopes] }),
  };
  try {
    // Our own server writes a plugin's result text as it is; any other host gets plain strings.
    const handler = makeHandler(plugin, tool, options, server instanceof McpServer);
    undo.push(removerOf(server.addTool(definition, handler)));
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    const message = `cannot register tool "${name}" of plugin "${plugin.name}" (${plugin.path}): ${why}`;
    if ((cause as { code?: unknown } | null)?.code === 'DUPLICATE_TOOL')
      throw new ToolCollisionError(message);
    throw new ToolRegistrationError(message, plugin, { cause });
  }
  return name;
}

function mountInto(server: ToolHost, plugin: Plugin, options: MountOptions, undo: (() => void)[]): string[] {
  return plugin.tools.map((tool) => register(server, plugin, tool, options, undo));
}

function undoAll(undo: (() => void)[]): void {
  for (const step of undo.reverse()) {
    try {
      step();
    } catch {
      // The registration is already gone; nothing else to undo.
    }
  }
}

/**
 * Mounts one plugin's tools; returns the registered names. A taken name throws `ToolCollisionError`, any other
 * refusal by the server (an inputSchema it cannot compile) `ToolRegistrationError`; either comes after
 * removing the tools this call had already registered (when the server can remove them).
 */
export function mountPlugin(server: ToolHost, plugin: Plugin, options: MountOptions = {}): string[] {
  const undo: (() => void)[] = [];
  try {
    return mountInto(server, plugin, options, undo);
  } catch (error) {
    undoAll(undo);
    throw error;
  }
}

/** Every name clash among the plugins, one line each; empty when there is none. */
export function findCollisions(plugins: readonly Plugin[]): string[] {
  const problems: string[] = [];
  const byName = new Map<string, Plugin>();
  for (const plugin of plugins) {
    const other = byName.get(plugin.name);
    if (other !== undefined) {
      problems.push(`plugin name "${plugin.name}" is used by both ${other.path} and ${plugin.path}`);
    } else byName.set(plugin.name, plugin);
  }
  const owners = new Map<string, Plugin>();
  for (const plugin of plugins) {
    for (const tool of plugin.tools) {
      const name = toolName(plugin, tool);
      const other = owners.get(name);
      if (other === undefined) owners.set(name, plugin);
      else if (other.name !== plugin.name) {
        problems.push(`tool "${name}" comes from both plugin "${other.name}" and plugin "${plugin.name}"`);
      } else if (other === plugin) problems.push(`plugin "${plugin.name}" lists tool "${tool.name}" twice`);
    }
  }
  return problems;
}

export interface MountEntry {
  readonly plugin: Plugin;
  readonly options?: MountOptions;
}

/**
 * Mounts several plugins after checking that no two of them claim the same name; a clash, or a name already
 * registered on the server, throws `ToolCollisionError` listing the clashes (`ToolRegistrationError` for a
 * tool the server refuses for another reason). `options` apply to every plugin
 * unless an entry brings its own. Returns the registered names per plugin, in order.
 */
export function mountPlugins(
  server: ToolHost,
  plugins: readonly (Plugin | MountEntry)[],
  options: MountOptions = {},
): Map<Plugin, string[]> {
  const entries = plugins.map((p) => ('plugin' in p ? p : { plugin: p }));
  const problems = findCollisions(entries.map((e) => e.plugin));
  if (problems.length > 0) {
    throw new ToolCollisionError(`refusing to serve clashing names:\n  ${problems.join('\n  ')}`);
  }
  const mounted = new Map<Plugin, string[]>();
  const undo: (() => void)[] = [];
  try {
    for (const { plugin, options: own } of entries) {
      mounted.set(plugin, mountInto(server, plugin, { ...options, ...own }, undo));
    }
  } catch (error) {
    undoAll(undo);
    throw error;
  }
  return mounted;
}

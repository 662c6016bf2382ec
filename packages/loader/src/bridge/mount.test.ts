import { describe, expect, it } from 'vitest';
import { PluginError } from '../errors.js';
import type { Plugin, PluginTool } from '../types.js';
import { findCollisions, mountPlugins, ToolCollisionError } from './mount.js';
import { answerToResult, errorToResult } from './result.js';
import type { BridgeToolDefinition, BridgeToolHandler, ToolHost } from './types.js';

/** A plugin whose execute echoes its arguments: enough to exercise naming and registration. */
function plugin(name: string, tools: string[], path = `/p/lib${name}.so`): Plugin {
  const list: PluginTool[] = tools.map((t) => ({
    name: t,
    description: `${t} tool`,
    inputSchema: { type: 'object' },
  }));
  return {
    name,
    path,
    apiVersion: 1,
    isolation: 'process',
    tools: list,
    listTools: async () => list,
    execute: async (tool, args) => ({ result: JSON.stringify({ tool, args }), directives: [] }),
    configure: async () => {},
    setWorkingDir: async () => {},
    close: async () => {},
  };
}

/** A registry with the server's rule: a taken name throws; registrations can be removed. */
class Registry implements ToolHost {
  readonly tools = new Map<string, { definition: BridgeToolDefinition; handler: BridgeToolHandler }>();
  addTool(definition: BridgeToolDefinition, handler: BridgeToolHandler) {
    if (this.tools.has(definition.name)) throw new Error(`tool "${definition.name}" is already registered`);
    this.tools.set(definition.name, { definition, handler });
    return { remove: () => this.tools.delete(definition.name) };
  }
}

describe('findCollisions', () => {
  it('finds plugin-name clashes and tool names two plugins would both produce', () => {
    expect(findCollisions([plugin('a', ['x']), plugin('b', ['x'])])).toEqual([]);
    expect(findCollisions([plugin('a', ['x'], '/1.so'), plugin('a', ['y'], '/2.so')])).toEqual([
      'plugin name "a" is used by both /1.so and /2.so',
    ]);
    expect(findCollisions([plugin('a.b', ['c']), plugin('a', ['b.c'])])).toEqual([
      'tool "a.b.c" comes from both plugin "a.b" and plugin "a"',
    ]);
    expect(findCollisions([plugin('a', ['x', 'x'])])).toEqual(['plugin "a" lists tool "x" twice']);
  });
});

describe('mountPlugins', () => {
  it('registers <plugin>.<tool> with the description, schema and a plugin _meta', () => {
    const host = new Registry();
    const mounted = mountPlugins(host, [plugin('a', ['x', 'y']), plugin('b', ['x'])]);
    expect([...host.tools.keys()]).toEqual(['a.x', 'a.y', 'b.x']);
    expect([...mounted.values()]).toEqual([['a.x', 'a.y'], ['b.x']]);
    expect(host.tools.get('b.x')?.definition).toEqual({
      name: 'b.x',
      description: 'x tool',
      inputSchema: { type: 'object' },
      _meta: { 'io.entropic/plugin': { plugin: 'b', tool: 'x' } },
    });
  });

  it('refuses clashes before registering anything', () => {
    const host = new Registry();
    expect(() => mountPlugins(host, [plugin('a', ['x'], '/1.so'), plugin('a', ['x'], '/2.so')])).toThrow(
      ToolCollisionError,
    );
    expect(host.tools.size).toBe(0);
  });

  it('refuses a name already taken on the server and removes what it had registered', () => {
    const host = new Registry();
    host.addTool({ name: 'b.x' }, async () => ({ content: [] }));
    expect(() => mountPlugins(host, [plugin('a', ['x']), plugin('b', ['x'])])).toThrow(
      /cannot register tool "b.x" of plugin "b" \(\/p\/libb.so\): tool "b.x" is already registered/,
    );
    expect([...host.tools.keys()]).toEqual(['b.x']);
  });
});

describe('results', () => {
  it('maps the envelope: result → text, directives → _meta', () => {
    expect(answerToResult({ result: 'ok', directives: [{ type: 'complete' }] })).toEqual({
      content: [{ type: 'text', text: 'ok' }],
      _meta: { 'io.entropic/directives': [{ type: 'complete' }] },
    });
  });

  it('maps a plugin failure to an isError result naming plugin, tool, code and signal', () => {
    const error = new PluginError('ENTROPIC_PLUGIN_CRASHED', 'the host died', { signal: 'SIGSEGV' });
    const result = errorToResult(error, 'fx', 'crash');
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toBe(
      'plugin "fx" failed on tool "crash" [ENTROPIC_PLUGIN_CRASHED, SIGSEGV]: the host died',
    );
    expect(result._meta?.['io.entropic/error']).toEqual({
      plugin: 'fx',
      tool: 'crash',
      code: 'ENTROPIC_PLUGIN_CRASHED',
      message: 'the host died',
      signal: 'SIGSEGV',
    });
  });
});

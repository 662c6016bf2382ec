// Tests of mounting plugin tools: name collisions and answer-to-result mapping.
import { Later, McpServer } from '@entropic-mcp/server';
import { describe, expect, it } from 'vitest';
import { PluginError } from '../base/errors.js';
import type { Plugin, PluginTool } from '../base/types.js';
import { findCollisions, mountPlugin } from './mount.js';
import { answerToResult, errorToResult } from './result.js';
import type { BridgeToolHandler } from './types.js';

/** Plugin-shaped data: findCollisions reads only names, paths and tool lists. */
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
    instances: 1,
    usesContext: false,
    tools: list,
    listTools: async () => list,
    pending: 0,
    execute: async (tool, args) => ({ result: JSON.stringify({ tool, args }), directives: [] }),
    call: (tool, args, reply) => reply.answered({ result: JSON.stringify({ tool, args }), directives: [] }),
    configure: async () => {},
    setWorkingDir: async () => {},
    close: async () => {},
  };
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

describe('mounting on our own server', () => {
  it('answers each call through a Later the server waits on, not a promise', async () => {
    const handlers = new Map<string, BridgeToolHandler>();
    const server = new McpServer({ name: 't', version: '1' });
    const addTool = server.addTool.bind(server);
    server.addTool = ((definition: { name: string }, handler: BridgeToolHandler) => {
      handlers.set(definition.name, handler);
      return addTool(definition as never, handler as never);
    }) as typeof server.addTool;
    expect(mountPlugin(server, plugin('p', ['x']))).toEqual(['p.x']);
    const out = handlers.get('p.x')?.({ a: 1 }, { signal: new AbortController().signal, onAbort() {} });
    expect(out).toBeInstanceOf(Later);
    expect(await out).toEqual({
      content: [{ type: 'text', text: '{"tool":"x","args":{"a":1}}' }],
      _meta: { 'io.entropic/directives': [] },
    });
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

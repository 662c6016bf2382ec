// Tests of parsing plugin tool lists and answers.
import { describe, expect, it } from 'vitest';
import { PluginError } from './errors.js';
import { parseAnswer, parseToolList } from './validate.js';

const ctx = { path: '/p/demo.so', plugin: 'demo' };

function fault(run: () => unknown): PluginError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PluginError);
    return error as PluginError;
  }
  throw new Error('expected a PluginError');
}

describe('parseToolList', () => {
  it('reads NULL and an empty string as no tools', () => {
    expect(parseToolList(null, ctx)).toEqual([]);
    expect(parseToolList('  ', ctx)).toEqual([]);
  });
  it('keeps name, description and inputSchema', () => {
    const text =
      '[{"name":"a","description":"d","inputSchema":{"type":"object"}},{"name":"b","inputSchema":{"type":"object"}}]';
    expect(parseToolList(text, ctx)).toEqual([
      { name: 'a', description: 'd', inputSchema: { type: 'object' } },
      { name: 'b', inputSchema: { type: 'object' } },
    ]);
  });
  it.each([
    ['{"name":"a"}', /returned an object, expected a JSON array/],
    ['[1]', /entry 0 is a number/],
    ['[{"inputSchema":{"type":"object"}}]', /no non-empty string "name"/],
    [
      '[{"name":"a","inputSchema":{"type":"object"}},{"name":"a","inputSchema":{"type":"object"}}]',
      /listed twice/,
    ],
    ['[{"name":"a","description":3,"inputSchema":{"type":"object"}}]', /"description" that is a number/],
    ['[{"name":"a","inputSchema":{"type":"string"}}]', /"type" is "string"/],
    ['[{"name":"a"', /not valid JSON/],
  ])('refuses %s', (text, message) => {
    const error = fault(() => parseToolList(text, ctx));
    expect(error.code).toBe('ENTROPIC_PLUGIN_BAD_ANSWER');
    expect(error.errno).toBeUndefined();
    expect(error.message).toMatch(message);
    expect(error.message).toContain('plugin "demo" (/p/demo.so)');
  });
});

describe('parseAnswer', () => {
  const tool = { ...ctx, tool: 'run' };
  it('accepts a result with known directives, and a missing directives list', () => {
    expect(parseAnswer('{"result":"r","directives":[{"type":"complete"}]}', tool)).toEqual({
      result: 'r',
      directives: [{ type: 'complete' }],
    });
    expect(parseAnswer('{"result":""}', tool)).toEqual({ result: '', directives: [] });
  });
  it.each([
    [null, /returned NULL/],
    ['nope', /not valid JSON/],
    ['"text"', /returned a string/],
    ['{"result":null}', /"result" that is null/],
    ['{"result":"r","directives":[{"kind":"x"}]}', /directive 0 has no string "type"/],
    ['{"result":"r","directives":["complete"]}', /directive 0 is a string/],
  ])('refuses %s', (text, message) => {
    const error = fault(() => parseAnswer(text, tool));
    expect(error.message).toMatch(message);
    expect(error.message).toContain('tool "run"');
    expect(error.tool).toBe('run');
  });
});

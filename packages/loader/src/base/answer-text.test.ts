// Tests of compact plugin answers (the result kept as the plugin's JSON text) and of parseAnswer through that path.
import { describe, expect, it } from 'vitest';
import { compactAnswer, RAW_MIN_LENGTH, resultJsonOf } from './answer-text.js';
import { PluginError } from './errors.js';
import { parseAnswer } from './validate.js';

const ctx = { path: '/p/demo.so', plugin: 'demo', tool: 't' };

describe('compactAnswer', () => {
  it.each([
    ['{"result":"hello","directives":[]}', 'hello'],
    ['{"result":"hello"}', 'hello'],
    ['{"result":"","directives":[]}', ''],
    [
      '{"result":"q\\" b\\\\ s\\/ \\b\\f\\n\\r\\t \\u00e9 \\ud83d\\ude00 é€","directives":[]}',
      'q" b\\ s/ \b\f\n\r\t é 😀 é€',
    ],
    ['{"result":"ends in a backslash \\\\","directives":[]}', 'ends in a backslash \\'],
    ['{"result":"\\\\\\"","directives":[]}', '\\"'],
  ])('reads %s as JSON.parse does and keeps the literal as written when it is long', (short, end) => {
    const pad = 'x'.repeat(RAW_MIN_LENGTH);
    const text = short.replace('{"result":"', `{"result":"${pad}`);
    const result = pad + end;
    expect(compactAnswer(short)).toEqual({ result: end, directives: [] });
    expect(resultJsonOf(compactAnswer(short)!)).toBeUndefined();
    const answer = compactAnswer(text);
    expect(answer).toEqual({ result, directives: [] });
    expect(answer).toEqual(
      JSON.parse(text.replace(/}$/, text.includes('directives') ? '}' : ',"directives":[]}')),
    );
    const literal = resultJsonOf(answer!);
    expect(JSON.parse(literal!)).toBe(result);
    expect(text).toContain(literal);
    // The literal is not an own enumerable property: the answer still looks like { result, directives }.
    expect(Object.keys(answer!)).toEqual(['result', 'directives']);
    expect(JSON.stringify(answer)).toBe(JSON.stringify({ result, directives: [] }));
  });

  it.each([
    ['a raw control character', '{"result":"a\ttab","directives":[]}'],
    ['a bad escape', '{"result":"bad \\x","directives":[]}'],
    ['a short \\u escape', '{"result":"\\u12","directives":[]}'],
    ['an escaped closing quote', '{"result":"open\\","directives":[]}'],
    ['text after the object', '{"result":"x","directives":[]} more'],
    ['a second key', '{"result":"a","result":"b","directives":[]}'],
    ['directives that are not empty', '{"result":"x","directives":[{"type":"stop_processing"}]}'],
    ['spaces', '{ "result": "x" }'],
    ['a number', '{"result":42}'],
  ])('leaves %s to the full parse', (_what, text) => {
    expect(compactAnswer(text)).toBeUndefined();
  });
});

describe('parseAnswer through the compact path', () => {
  it('still names a malformed answer as ENTROPIC_PLUGIN_BAD_ANSWER', () => {
    for (const text of [
      '{"result":"bad \\x","directives":[]}',
      '{"result":"a\ttab"}',
      '{"result":"open\\"}',
    ]) {
      let caught: unknown;
      try {
        parseAnswer(text, ctx);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(PluginError);
      expect((caught as PluginError).code).toBe('ENTROPIC_PLUGIN_BAD_ANSWER');
      expect((caught as PluginError).message).toContain('execute of tool "t" is not valid JSON');
    }
  });

  it('reads the other shapes as before, without a kept literal', () => {
    const answer = parseAnswer('{"result":"a","result":"b","directives":[]}', ctx);
    expect(answer.result).toBe('b');
    expect(resultJsonOf(answer)).toBeUndefined();
    const spaced = parseAnswer('{ "result" : "x\\n" }', ctx);
    expect(spaced).toEqual({ result: 'x\n', directives: [] });
  });
});

// Tests of the usual plugin success as our own server writes it: its prepared JSON text (whole, and field by
// field) is exactly what its fields serialise to, and it stops vouching for it as soon as anything changes them.
import { PreparedJson } from '@entropic-mcp/server';
import { describe, expect, it } from 'vitest';
import { compactAnswer, plainAnswer } from '../base/answer-text.js';
import type { PluginAnswer } from '../base/types.js';
import { answerToRawResult, DIRECTIVES_META_KEY } from './result.js';

const ESCAPES = 'q" b\\ s/ \b\f\n\r\t \u0001 é 😀 \u2028 </script>';
const LONG = `say "hi" \\ line\n café 😀 é\u2028 / `.repeat(200);

/** Answers as the wire decodes them: a plain result, a compact one with escapes, a long one kept as its literal. */
function answers(): [string, PluginAnswer][] {
  return [
    ['plain', plainAnswer('hello')],
    ['escaped', compactAnswer(`{"result":${JSON.stringify(ESCAPES)}}`) as PluginAnswer],
    ['long', compactAnswer(`{"result":${JSON.stringify(LONG)},"directives":[]}`) as PluginAnswer],
    ['long plain', plainAnswer('x'.repeat(5000))],
  ];
}

function prepared(answer: PluginAnswer): PreparedJson & Record<string, unknown> {
  const result = answerToRawResult(answer);
  expect(result).toBeInstanceOf(PreparedJson);
  return result as unknown as PreparedJson & Record<string, unknown>;
}

describe('a plugin success without directives, on our own server', () => {
  it.each(answers())('keeps the JSON text its fields serialise to (%s)', (_, answer) => {
    const result = prepared(answer);
    const text = result.jsonText();
    expect(text).toBe(JSON.stringify(result));
    expect(JSON.parse(text as string)).toEqual({
      content: [{ type: 'text', text: answer.result }],
      _meta: { [DIRECTIVES_META_KEY]: [] },
    });
    // Field by field as well, for a copy with fields added (a 2026-07-28 result).
    const fields = result.fieldTexts?.() as Record<string, string>;
    expect(Object.keys(fields)).toEqual(Object.keys(result));
    for (const key of Object.keys(result)) expect(fields[key]).toBe(JSON.stringify(result[key]));
  });

  it('stops vouching for its text once its fields change, and serialises the change', () => {
    const changes: ((r: Record<string, unknown>) => void)[] = [
      (r) => {
        (r.content as { text: string }[])[0]!.text = 'other';
      },
      (r) => {
        r.isError = true;
      },
      (r) => {
        (r.content as unknown[]).push({ type: 'text', text: 'more' });
      },
      (r) => {
        r._meta = { other: 1 };
      },
      (r) => {
        (r.content as Record<string, unknown>[])[0]!.annotations = { priority: 1 };
      },
      (r) => {
        const block = (r.content as Record<string, unknown>[])[0]!;
        delete block.type;
        block.type = 'text';
      },
      (r) => {
        r.content = [{ type: 'text', text: 'hello' }];
      },
    ];
    for (const change of changes) {
      const result = prepared(plainAnswer('hello'));
      change(result);
      expect(result.jsonText()).toBeUndefined();
      expect(result.fieldTexts?.()).toBeUndefined();
      expect(JSON.parse(JSON.stringify(result))).toEqual({ ...result });
    }
  });

  it('is a plain result when the plugin asked for directives or attached a structured result', () => {
    const directed = { result: 'r', directives: [{ type: 'log', message: 'm' }] } as unknown as PluginAnswer;
    expect(answerToRawResult(directed)).not.toBeInstanceOf(PreparedJson);
    const structured = { result: 'r', directives: [], structured: { n: 1 } } as PluginAnswer;
    expect(answerToRawResult(structured)).not.toBeInstanceOf(PreparedJson);
    expect(answerToRawResult(structured)).toMatchObject({ structuredContent: { n: 1 } });
  });
});

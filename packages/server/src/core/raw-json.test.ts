// Tests of RawJson and encodeJson: JSON text written into an outgoing message as it is.
import { describe, expect, it } from 'vitest';
import { encodeJson, RawJson } from './raw-json.js';

describe('RawJson and encodeJson', () => {
  it('writes the text of each RawJson as it is, in place', () => {
    const literal = '"caf\\u00e9 \\"q\\" \\ud83d\\ude00"';
    const message = {
      jsonrpc: '2.0',
      id: 7,
      result: {
        content: [{ type: 'text', text: new RawJson(literal) }],
        more: new RawJson('[1,{"a":null}]'),
      },
    };
    const text = encodeJson(message);
    expect(text).toBe(
      `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":${literal}}],"more":[1,{"a":null}]}}`,
    );
    expect(JSON.parse(text).result.content[0].text).toBe('café "q" 😀');
  });

  it('serialises like JSON.stringify when there is no RawJson', () => {
    const message = { a: ['x', 1, null, { b: 'é\n' }] };
    expect(encodeJson(message)).toBe(JSON.stringify(message));
  });

  it('gives plain JSON.stringify the parsed value', () => {
    expect(JSON.stringify({ t: new RawJson('"a\\nb"') })).toBe('{"t":"a\\nb"}');
  });

  it('is not fooled by a string of the message equal to the mark it uses', () => {
    const mark = '\u0000entropic-raw-json\u0000';
    for (const value of [
      { before: mark, raw: new RawJson('"r"') },
      { raw: new RawJson('"r"'), after: mark },
      { before: `x"${mark}`, raw: new RawJson('"r"') },
    ]) {
      expect(JSON.parse(encodeJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      expect(JSON.parse(encodeJson(value)).raw).toBe('r');
    }
  });

  it('still throws for what JSON.stringify refuses, and recovers afterwards', () => {
    expect(() => encodeJson({ raw: new RawJson('"r"'), n: 1n })).toThrow(TypeError);
    expect(encodeJson({ raw: new RawJson('"r"') })).toBe('{"raw":"r"}');
  });
});

// Tests of RawJson, PreparedJson and encodeJson: JSON text written into an outgoing message as it is.
import { describe, expect, it } from 'vitest';
import { encodeJson, PreparedJson, RawJson } from './raw-json.js';

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
  describe('a reply whose result is a PreparedJson', () => {
    /** A result that keeps its text ready, and vouches for it only while `ok` (the test's stand-in for a check). */
    class Ready extends PreparedJson {
      readonly content = [{ type: 'text', text: 'fields' }];
      calls = 0;
      constructor(
        private readonly text: string | undefined,
        ok = true,
      ) {
        super();
        Object.defineProperty(this, 'text', { enumerable: false });
        Object.defineProperty(this, 'calls', { enumerable: false });
        if (!ok) this.text = undefined;
      }
      jsonText(): string | undefined {
        this.calls++;
        return this.text;
      }
    }

    it('is written with its prepared text, as one reply, for a number or a string id', () => {
      const prepared = '{"content":[{"type":"text","text":"ready"}]}';
      for (const id of [7, -1.5, 'a"b\u00e9']) {
        const result = new Ready(prepared);
        const text = encodeJson({ jsonrpc: '2.0', id, result });
        expect(text).toBe(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${prepared}}`);
        expect(result.calls).toBe(1);
        expect(JSON.parse(text)).toEqual({ jsonrpc: '2.0', id, result: JSON.parse(prepared) });
      }
    });

    it('is serialised from its fields when it does not vouch for its text, and anywhere but a plain reply', () => {
      const fields = { content: [{ type: 'text', text: 'fields' }] };
      const refused = { jsonrpc: '2.0', id: 1, result: new Ready(undefined, false) };
      expect(encodeJson(refused)).toBe(JSON.stringify({ jsonrpc: '2.0', id: 1, result: fields }));
      const others = [
        { jsonrpc: '2.0', id: 1, result: new Ready('{"x":1}'), extra: true },
        { id: 1, jsonrpc: '2.0', result: new Ready('{"x":1}') },
        { jsonrpc: '2.0', id: null, result: new Ready('{"x":1}') },
        { jsonrpc: '2.0', id: Number.NaN, result: new Ready('{"x":1}') },
        { jsonrpc: '1.0', id: 1, result: new Ready('{"x":1}') },
        [{ jsonrpc: '2.0', id: 1, result: new Ready('{"x":1}') }],
      ];
      for (const message of others) {
        expect(encodeJson(message)).toBe(JSON.stringify(message));
        expect(encodeJson(message)).not.toContain('"x"');
      }
    });
  });
});

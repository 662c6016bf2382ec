// Tests of completeResult: the shallow copy every 2026-07-28 result gets, with resultType, serverInfo and hints;
// and the copy of a result that keeps its fields' JSON text, written from those texts while it may be.
import { describe, expect, it } from 'vitest';
import type { ServerCore } from '../host.js';
import { encodeJson, PreparedJson } from '../raw-json.js';
import { completeResult } from './results.js';

const server = {
  wireInfo: { name: 'srv', version: '1.0.0' },
  options: { cache: { 'tools/list': { ttlMs: 60_000, cacheScope: 'private' } } },
} as unknown as ServerCore;
const INFO = 'io.modelcontextprotocol/serverInfo';

describe('completeResult', () => {
  it('copies the result, adds resultType and serverInfo, and leaves the handler object alone', () => {
    const result = { content: [{ type: 'text', text: 'hi' }], structuredContent: { a: 1 } };
    const out = completeResult(server, 'tools/call', result) as Record<string, unknown>;
    expect(out).toEqual({ ...result, resultType: 'complete', _meta: { [INFO]: server.wireInfo } });
    expect(Object.keys(out)).toEqual(['content', 'structuredContent', 'resultType', '_meta']);
    expect(result).toEqual({ content: [{ type: 'text', text: 'hi' }], structuredContent: { a: 1 } });
  });

  it("merges the handler's own _meta and adds the caching hints of cacheable methods", () => {
    const out = completeResult(server, 'tools/list', { tools: [], _meta: { mine: true } });
    expect(out).toEqual({
      tools: [],
      _meta: { mine: true, [INFO]: server.wireInfo },
      resultType: 'complete',
      ttlMs: 60_000,
      cacheScope: 'private',
    });
  });

  it('keeps a "__proto__" key as data, never as the prototype of the copy', () => {
    const result = JSON.parse('{"content":[],"_meta":{"__proto__":{"polluted":true}}}');
    const out = completeResult(server, 'tools/call', result) as { _meta: Record<string, unknown> };
    expect(Object.getPrototypeOf(out._meta)).toBe(Object.prototype);
    expect((out._meta as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.stringify(out._meta)).toContain('"__proto__":{"polluted":true}');
  });

  it('passes a non-object result through', () => {
    expect(completeResult(server, 'tools/call', 'text')).toBe('text');
  });
});

/** A handler result that keeps its fields' texts, counting how often they were asked for; `ok` stands for its check. */
class Kept extends PreparedJson {
  content = [{ type: 'text', text: 'kept' }];
  _meta: Record<string, unknown> = { 'io.test/mine': [] };
  asked = 0;
  ok = true;
  constructor() {
    super();
    for (const key of ['asked', 'ok']) Object.defineProperty(this, key, { enumerable: false });
  }
  jsonText(): string | undefined {
    return this.ok ? JSON.stringify({ content: this.content, _meta: this._meta }) : undefined;
  }
  override fieldTexts(): Record<string, string> | undefined {
    this.asked++;
    return this.ok ? { content: JSON.stringify(this.content), _meta: JSON.stringify(this._meta) } : undefined;
  }
}

const reply = (result: unknown) => ({ jsonrpc: '2.0', id: 3, result });
/** The reply as JSON.stringify writes it, from a plain copy of the result's fields. */
const plainly = (result: object) => JSON.stringify(reply({ ...result }));

describe('completeResult of a result that keeps its fields as JSON text', () => {
  it('is the same copy, written from the kept texts and the added fields', () => {
    for (const method of ['tools/call', 'tools/list']) {
      const base = new Kept();
      const out = completeResult(server, method, base) as PreparedJson & Record<string, unknown>;
      expect(out).toBeInstanceOf(PreparedJson);
      expect({ ...out }).toEqual(completeResult(server, method, { ...base }));
      expect(Object.keys(out)).toEqual(Object.keys(completeResult(server, method, { ...base }) as object));
      const asked = base.asked;
      expect(encodeJson(reply(out))).toBe(plainly(out));
      expect(base.asked).toBe(asked + 1);
    }
  });

  it('is serialised from its fields once one changed, one was added, or the handler stops vouching', () => {
    const changes: ((out: Record<string, unknown>, base: Kept) => void)[] = [
      (out) => {
        out.content = [{ type: 'text', text: 'replaced' }];
      },
      (out) => {
        out.isError = true;
      },
      (out) => {
        delete out.resultType;
      },
      (out) => {
        out._meta = { other: 1 };
      },
      (_, base) => {
        base.ok = false;
      },
      (_, base) => {
        base.content = [{ type: 'text', text: 'the handler changed its own' }];
      },
    ];
    for (const change of changes) {
      const base = new Kept();
      const out = completeResult(server, 'tools/call', base) as PreparedJson & Record<string, unknown>;
      change(out, base);
      expect(out.jsonText()).toBeUndefined();
      expect(encodeJson(reply(out))).toBe(plainly(out));
    }
  });

  it('writes what is in its added _meta when the moment comes', () => {
    const out = completeResult(server, 'tools/call', new Kept()) as PreparedJson & {
      _meta: Record<string, unknown>;
    };
    out._meta.late = true;
    expect(encodeJson(reply(out))).toBe(plainly(out));
    expect(JSON.parse(encodeJson(reply(out))).result._meta.late).toBe(true);
  });
});

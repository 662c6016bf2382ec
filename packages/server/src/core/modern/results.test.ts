// Tests of completeResult: the shallow copy every 2026-07-28 result gets, with resultType, serverInfo and hints.
import { describe, expect, it } from 'vitest';
import type { ServerCore } from '../host.js';
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

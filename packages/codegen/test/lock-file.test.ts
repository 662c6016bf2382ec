// Tests of abi.lock.json: entries, refresh, ordering and malformed files.
import { describe, expect, it } from 'vitest';
import {
  type AbiLock,
  type AbiModel,
  fingerprint,
  lockedSubset,
  parseLock,
  readAbiModel,
  renderLock,
} from '../src/index.js';

const model = readAbiModel();

function withVersion(m: AbiModel, version: number): AbiModel {
  const copy = structuredClone(m);
  copy.apiVersion = version;
  return copy;
}

describe('abi.lock.json', () => {
  it('holds one entry for the current API version with its fingerprint and locked subset', () => {
    const lock = parseLock(renderLock(model));
    expect(Object.keys(lock.versions)).toEqual([String(model.apiVersion)]);
    expect(lock.versions['1']).toEqual({ fingerprint: fingerprint(model), locked: lockedSubset(model) });
  });

  it('keeps earlier versions byte-for-byte when a new version is added', () => {
    const v1Text = renderLock(model);
    const v1 = parseLock(v1Text);
    // Version 2 changes a signature.
    const next = withVersion(model, 2);
    const free = next.headers
      .flatMap((h) => h.items)
      .find((i) => i.kind === 'function' && i.name === 'entropic_free');
    if (free?.kind !== 'function') throw new Error('entropic_free missing');
    free.params[0]!.type = { kind: 'builtin', spelling: 'char*' };
    const text = renderLock(next, v1);
    const both = parseLock(text);
    expect(Object.keys(both.versions)).toEqual(['1', '2']);
    expect(both.versions['1']).toEqual(v1.versions['1']);
    expect(both.versions['2']!.fingerprint).not.toBe(v1.versions['1']!.fingerprint);
    const v1Block = v1Text.slice(v1Text.indexOf('"1": {'), v1Text.lastIndexOf('\n    }'));
    expect(v1Block.length).toBeGreaterThan(1000);
    expect(text).toContain(v1Block);
  });

  it('refreshes only the current version entry', () => {
    const stale: AbiLock = parseLock(renderLock(model));
    stale.versions['1']!.fingerprint = 'sha256:0';
    expect(parseLock(renderLock(model, stale)).versions['1']!.fingerprint).toBe(fingerprint(model));
  });

  it('orders versions numerically', () => {
    const lock = parseLock(renderLock(withVersion(model, 10), parseLock(renderLock(withVersion(model, 2)))));
    expect(Object.keys(lock.versions)).toEqual(['2', '10']);
  });

  it('rejects malformed lock files with a message naming the problem', () => {
    expect(() => parseLock('{', 'x.json')).toThrow(/x\.json is not valid JSON/);
    expect(() => parseLock('{"versions":{}}')).toThrow(/"lockFormat": 1/);
    expect(() => parseLock('{"lockFormat":1,"versions":{"v1":{}}}')).toThrow(
      /"v1" is not a positive integer/,
    );
    expect(() => parseLock('{"lockFormat":1,"versions":{"1":{"fingerprint":"md5:x"}}}')).toThrow(
      /version 1 needs/,
    );
  });
});

// Tests of PluginError codes and values.
import { describe, expect, it } from 'vitest';
import { HOST_ERROR_CODES, PluginError } from './errors.js';

describe('PluginError', () => {
  it('carries the contract value of a contract code', () => {
    const error = new PluginError('ENTROPIC_ERROR_PLUGIN_LOAD_FAILED', 'm', { path: '/x.so' });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('PluginError');
    expect(error.errno).toBe(10);
    expect(error.value).toBe(10);
    expect(error.path).toBe('/x.so');
  });
  it('has no value for a host code', () => {
    expect(new PluginError(HOST_ERROR_CODES.crashed, 'm').errno).toBeUndefined();
  });
  it('names a numeric code, keeping an out-of-range value', () => {
    expect(PluginError.fromValue(9, 'm').code).toBe('ENTROPIC_ERROR_PLUGIN_VERSION_MISMATCH');
    const unknown = PluginError.fromValue(999, 'm');
    expect(unknown.code).toBe('ENTROPIC_ERROR_UNKNOWN');
    expect(unknown.errno).toBe(999);
  });
});

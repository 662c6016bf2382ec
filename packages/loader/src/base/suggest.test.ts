// Tests of the closest-key suggestion for typos.
import { describe, expect, it } from 'vitest';
import { closest, didYouMean } from './suggest.js';

const MCP_KEYS = ['plugins', 'working_dir', 'server_timeout_seconds'];

describe('closest', () => {
  it('finds the key a typo was meant to be', () => {
    expect(closest('plugin', MCP_KEYS)).toBe('plugins');
    expect(closest('Plugins', MCP_KEYS)).toBe('plugins');
    expect(closest('workdir', MCP_KEYS)).toBe('working_dir');
    expect(closest('timeout', ['path', 'timeout_ms', 'isolation'])).toBe('timeout_ms');
    expect(closest('ecoh', ['echo', 'stop', 'delegate'])).toBe('echo');
  });

  it('takes a longer or shorter form of a known word, split at _ or -, as meaning it', () => {
    const keys = [...MCP_KEYS, 'redis', 'request_state_key'];
    expect(closest('redis_url', keys)).toBe('redis');
    expect(closest('REDIS-URL', keys)).toBe('redis');
    expect(closest('request_state', keys)).toBe('request_state_key');
    expect(closest('redistribute', keys)).toBeUndefined();
  });

  it('prefers a word one letter away to a longer form', () => {
    expect(closest('plugin', ['plugin_log_limit', 'plugins'])).toBe('plugins');
    expect(closest('plugin_log', ['plugin_log_limit', 'plugins'])).toBe('plugin_log_limit');
    expect(closest('x', ['y'])).toBeUndefined();
  });

  it('suggests nothing for a word that is not near any', () => {
    expect(closest('models', MCP_KEYS)).toBeUndefined();
    expect(closest('x', [])).toBeUndefined();
    expect(closest('ab', ['cd', 'ef'])).toBeUndefined();
  });

  it('words the suggestion', () => {
    expect(didYouMean('plugin', MCP_KEYS)).toBe('; did you mean `plugins`?');
    expect(didYouMean('zzzz', MCP_KEYS)).toBe('');
  });
});

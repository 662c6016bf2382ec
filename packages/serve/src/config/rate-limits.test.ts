// The reader of `--rate-limit` and `mcp.rate_limits`: the flag's strings, the file's list or map, and the refusals.
import { describe, expect, it } from 'vitest';
import { rateLimits } from './rate-limits.js';

describe('rate limits as serve reads them', () => {
  it('reads RATE[/BURST] as the default and TOOL=RATE[/BURST] as a tool’s rule', () => {
    expect(rateLimits(['20', 'echo.echo=0.5/3', 'a=b.c=2'], '--rate-limit')).toEqual({
      default: { rate: 20 },
      tools: { 'echo.echo': { rate: 0.5, burst: 3 }, 'a=b.c': { rate: 2 } },
    });
  });

  it('reads the file’s map', () => {
    const map = {
      default: '10/20',
      tools: { 'echo.echo': { rate: 1, burst: 2 } },
      methods: { 'resources/read': 5 },
      key: 'session',
      on_store_failure: 'closed',
    };
    expect(rateLimits(map, 'mcp.rate_limits')).toEqual({
      default: { rate: 10, burst: 20 },
      tools: { 'echo.echo': { rate: 1, burst: 2 } },
      methods: { 'resources/read': { rate: 5 } },
      key: 'session',
      onStoreFailure: 'closed',
    });
  });

  it.each([
    [['0'], '--rate-limit', /--rate-limit expects requests a second above 0/],
    [['t=fast'], '--rate-limit', /--rate-limit t expects requests a second above 0.*"fast"/],
    [['=3'], '--rate-limit', /expects \[TOOL=\]RATE\[\/BURST\]/],
    [{ default: { rate: 1, burst: 0 } }, 'mcp.rate_limits', /mcp.rate_limits.default expects/],
    [{ default: { rate: 1, brust: 2 } }, 'mcp.rate_limits', /unknown key "brust" \(known: rate, burst\)/],
    [{ tool: {} }, 'mcp.rate_limits', /unknown key "tool" \(known: default, tools/],
    [{ key: 'ip' }, 'mcp.rate_limits', /mcp.rate_limits.key expects address or session/],
    [{ on_store_failure: 'maybe' }, 'mcp.rate_limits', /on_store_failure expects open or closed/],
  ])('refuses %j, naming the option', (raw, name, message) => {
    expect(() => rateLimits(raw, name)).toThrow(message);
  });
});

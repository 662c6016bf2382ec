// The warning for `scopes:` without `--auth-*`: which plugins and tools it names, and when it stays silent.
import { describe, expect, it } from 'vitest';
import { scopesWithoutAuthWarning } from './scopes.js';

describe('scopes without --auth-*', () => {
  it('names each plugin whose scopes hide tools, and what they cover', () => {
    const warning = scopesWithoutAuthWarning(
      [
        { path: '/p/echo.so', scopes: { '*': ['read'], stop: ['read', 'admin'], echo: [] } },
        { path: '/p/plain.so' },
        { path: '/p/files.so', scopes: ['files'] },
      ],
      false,
    );
    expect(warning).toMatch(
      /^entropic-mcp serve: warning: scopes: is set for \/p\/echo\.so \(stop, every other tool\); \/p\/files\.so \(all its tools\) but no --auth-\* option is given/,
    );
    expect(warning).toMatch(/--auth-token-file FILE/);
    expect(warning?.endsWith('\n')).toBe(true);
  });

  it('says nothing when auth is on, or when no scope is asked for', () => {
    expect(scopesWithoutAuthWarning([{ path: '/p/files.so', scopes: ['files'] }], true)).toBeUndefined();
    const none = [
      { path: '/p/a.so', scopes: [] },
      { path: '/p/b.so', scopes: { stop: [] } },
      { path: '/p/c.so' },
    ];
    expect(scopesWithoutAuthWarning(none, false)).toBeUndefined();
  });
});

// Tests of the serve --auth-* options and the token file.
import { describe, expect, it } from 'vitest';
import { parseServeArgs, UsageError } from '../config/args.js';
import { parseTokenFile } from './auth.js';
import { formatBanner } from './banner.js';

describe('serve --auth-* options', () => {
  it('reads the JWKS triple and the token file (made absolute), only with --http', () => {
    const args = parseServeArgs(
      [
        '--http',
        '0.0.0.0:80',
        '--auth-jwks',
        'https://id.example/jwks.json',
        '--auth-issuer',
        'https://id.example',
        '--auth-audience',
        'https://mcp.example/mcp',
        '--auth-token-file',
        'secrets/tokens',
      ],
      '/w',
    );
    expect(args.auth).toEqual({
      jwksUrl: 'https://id.example/jwks.json',
      issuer: 'https://id.example',
      audience: 'https://mcp.example/mcp',
      tokenFile: '/w/secrets/tokens',
    });
    expect(parseServeArgs(['--http', '80'], '/w').auth).toBeUndefined();
    expect(() => parseServeArgs(['--auth-token-file', 't'], '/w')).toThrow(/--auth-\* options need --http/);
    expect(() => parseServeArgs(['--http', '80', '--auth-jwks', 'https://x/j'], '/w')).toThrow(
      /go together: give all three/,
    );
    const bad = ['--http', '80', '--auth-jwks', 'x', '--auth-issuer', 'i', '--auth-audience', 'a'];
    expect(() => parseServeArgs(bad, '/w')).toThrow(UsageError);
  });

  it('parses a token file: scopes after the token, comments and blank lines skipped', () => {
    const text = '# ops tokens\n\nabcdefghijklmnop0123 admin write\r\nqrstuvwxyz987654321  # no scopes\n';
    expect(parseTokenFile(text, 'f')).toEqual([
      { token: 'abcdefghijklmnop0123', scopes: ['admin', 'write'] },
      { token: 'qrstuvwxyz987654321', scopes: [] },
    ]);
    expect(() => parseTokenFile('# nothing\n', 'f')).toThrow(/f holds no token/);
    expect(() => parseTokenFile('ok-token-0123456789\nshort\n', 'f')).toThrow(/^--auth-token-file f:2: /);
  });

  it('tells how to turn auth on when bound beyond loopback without it', () => {
    const base = { plugins: [], failures: [], root: '/', stdioCommand: ['x'], url: 'http://0.0.0.0:1/mcp' };
    const transport = { kind: 'http', host: '0.0.0.0', port: 1 } as const;
    const open = formatBanner({ ...base, transport });
    expect(open).toMatch(/with no authentication; turn it on with --auth-token-file FILE .* --auth-jwks URL/);
    const closed = formatBanner({
      ...base,
      transport,
      auth: 'auth: bearer tokens required: 1 token(s) from t',
    });
    expect(closed).not.toContain('no authentication');
    expect(closed).toContain('auth: bearer tokens required: 1 token(s) from t');
  });
});

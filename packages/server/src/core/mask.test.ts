// The one masking of credentials in text: every shape, at the start of a line, after a letter, inside JSON, and in
// a stream split anywhere (every cut point of every case), including lines far longer than the held tail.
import { describe, expect, it } from 'vitest';
import { maskSecrets, REDACTED, SecretMasker } from './mask.js';

const JWT =
  'eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiJhbGljZSIsImlzcyI6Imh0dHBzOi8vaXNzdWVyIn0.c2lnbmF0dXJlLWJ5dGVzLWhlcmU';
const STATIC = 'tok-3f9c2a71d04e4b1c9e55';

/** Each case: the text, and the values that must not survive it. */
const CASES: readonly (readonly [string, string, readonly string[]])[] = [
  ['a registered token', `got ${STATIC} from the client`, [STATIC]],
  ['a registered token after a letter', `x${STATIC}y`, [STATIC]],
  ['a JWT', `jwt ${JWT} end`, [JWT, JWT.split('.')[1] as string]],
  ['a JWT after a letter', `token=abc\nsub${JWT}`, [JWT.split('.')[1] as string]],
  ['a Bearer credential', 'sent Bearer 9f8e7d6c5b4a39281706 along', ['9f8e7d6c5b4a39281706']],
  ['Bearer after a letter', 'xBearer 9f8e7d6c5b4a39281706', ['9f8e7d6c5b4a39281706']],
  ['an Authorization header line', 'Authorization: Token zz-abc-123 extra\nnext', ['zz-abc-123', 'extra']],
  ['a proxy-authorization header', 'proxy-authorization:Basic dXNlcjpwYXNzd29yZA==', ['dXNlcjpwYXNzd29yZA']],
  ['a cookie header', 'Cookie: session=s3cr3t-cookie-value', ['s3cr3t-cookie-value']],
  ['Basic on its own', 'used Basic dXNlcjpwYXNzd29yZA== here', ['dXNlcjpwYXNzd29yZA']],
  ['password: to the end of the line', 'password: correct horse battery\nok', ['correct horse battery']],
  ['password= up to a separator', 'db?user=a&password=hunter22&x=1', ['hunter22']],
  ['an env variable', 'DB_PASSWORD=pw-1234567 PORT=5', ['pw-1234567']],
  ['secret after a letter', 'mysecret=abcdef123', ['abcdef123']],
  ['api_key in JSON', '{"api_key":"k-998877","user":"bob"}', ['k-998877']],
  ['apiKey: quoted', "apiKey: 'k-55443322' # note", ['k-55443322']],
  ['client_secret', 'client_secret: cs-0011223344', ['cs-0011223344']],
  ['a URL password', 'redis://user:pa55word@host:6379/0', ['pa55word']],
  ['after a line break', 'first line\nBearer 9f8e7d6c5b4a39281706\n', ['9f8e7d6c5b4a39281706']],
];

function masker(): SecretMasker {
  const m = new SecretMasker();
  m.add(STATIC);
  return m;
}

describe('SecretMasker.mask', () => {
  it.each(CASES)('masks %s', (_what, text, hidden) => {
    const out = masker().mask(text);
    for (const value of hidden) expect(out).not.toContain(value);
    expect(out).toContain(REDACTED);
  });

  it('leaves ordinary text alone', () => {
    for (const text of [
      'auth: bearer tokens required: 2 token(s) from /etc/tokens; basic functionality works',
      '--auth-token-file /etc/mcp/tokens:3: a token must be at least 16 characters',
    ])
      expect(masker().mask(text)).toBe(text);
  });

  it('masks a key and its value in place, keeping what is around them', () => {
    expect(maskSecrets('{"password":"x1","user":"bob"}')).toBe(`{"password":${REDACTED},"user":"bob"}`);
    expect(maskSecrets('a Bearer 0123456789abcdef b')).toBe(`a Bearer ${REDACTED} b`);
    expect(maskSecrets(`a ${JWT} b`)).toBe(`a ${REDACTED} b`);
  });

  it('ignores secrets too short to be told from words, or holding a line break', () => {
    const m = new SecretMasker();
    m.add('abc');
    m.add('two\nlines');
    expect(m.mask('abc two\nlines')).toBe('abc two\nlines');
  });
});

describe('SecretMasker.stream', () => {
  it.each(CASES)('masks %s however the text is split in two writes', (_what, text, hidden) => {
    const m = masker();
    for (let cut = 0; cut <= text.length; cut++) {
      const stream = m.stream();
      const out = stream.write(text.slice(0, cut)) + stream.write(text.slice(cut)) + stream.end();
      for (const value of hidden) expect(out, `cut at ${cut}`).not.toContain(value);
    }
  });

  it('writes complete lines at once and holds back the rest of a line', () => {
    const stream = masker().stream();
    expect(stream.write('one\ntw')).toBe('one\n');
    expect(stream.write('o\nBearer 0123')).toBe('two\n');
    expect(stream.write('456789abcdef\n')).toBe(`Bearer ${REDACTED}\n`);
    expect(stream.end()).toBe('');
  });

  it('writes a line longer than it holds in parts, never cutting a credential apart', () => {
    const filler = 'lorem ipsum '.repeat(6000);
    for (const at of [60_000, 61_440, 62_000, 65_530]) {
      const text = `${filler.slice(0, at)} Bearer ${'b'.repeat(40)} ${JWT} tail`;
      for (const step of [997, 4096, 8191]) {
        const stream = masker().stream();
        let out = '';
        for (let i = 0; i < text.length; i += step) out += stream.write(text.slice(i, i + step));
        out += stream.end();
        expect(out).not.toContain('b'.repeat(40));
        expect(out).not.toContain(JWT.split('.')[1]);
        expect(out.endsWith(' tail')).toBe(true);
      }
    }
  });

  it('holds no more than its bound, writing a credential longer than it masked, without the rest of its line', () => {
    const stream = masker().stream();
    const huge = `Bearer ${'q'.repeat(70_000)}`;
    const first = stream.write(huge);
    expect(first).toBe(`Bearer ${REDACTED}`);
    expect(stream.write('q'.repeat(500))).toBe('');
    expect(stream.write('qq tail\nnext line\n')).toBe('\nnext line\n');
  });
});

// The principal key: one stable, credential-free string per caller, from what the auth hook returned.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { principalOf } from './principal.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('principalOf', () => {
  it('keys a verified subject by issuer and subject, whatever the token', () => {
    const a1 = principalOf({ token: 'jwt-one', subject: 'alice', claims: { iss: 'https://id.test' } });
    const a2 = principalOf({ token: 'jwt-two', subject: 'alice', claims: { iss: 'https://id.test' } });
    expect(a1).toBe(a2);
    expect(a1).toBe(`sub-${sha(JSON.stringify(['https://id.test', 'alice']))}`);
    expect(principalOf({ token: 'jwt-one', subject: 'bob', claims: { iss: 'https://id.test' } })).not.toBe(
      a1,
    );
    expect(
      principalOf({ token: 'jwt-one', subject: 'alice', claims: { iss: 'https://other.test' } }),
    ).not.toBe(a1);
    // A subject with no issuer (a static token's configured subject) is a principal of its own.
    expect(principalOf({ token: 'static', subject: 'alice', claims: {} })).not.toBe(a1);
  });

  it('keys a credential without a subject by its digest, never by its text', () => {
    const a = principalOf({ token: 'static-token-aaaaaaaaaaaa', scopes: [], claims: {} });
    const b = principalOf({ token: 'static-token-bbbbbbbbbbbb', scopes: [], claims: {} });
    expect(a).toBe(`cred-${sha('static-token-aaaaaaaaaaaa')}`);
    expect(b).not.toBe(a);
    expect(a).not.toContain('static-token');
    expect(a).toMatch(/^[a-z0-9-]+$/);
  });

  it('takes a hook’s own principal, else the Authorization header’s digest, else none', () => {
    expect(principalOf({ principal: 'tenant-7/user-3' }, 'Bearer x')).toBe('tenant-7/user-3');
    expect(principalOf(true, 'Bearer abc')).toBe(`cred-${sha('Bearer abc')}`);
    expect(principalOf({ role: 'x' }, '  Bearer abc ')).toBe(`cred-${sha('Bearer abc')}`);
    expect(principalOf(undefined, undefined)).toBeUndefined();
    expect(principalOf({ role: 'x' }, '')).toBeUndefined();
  });
});

// Which context headers count as carrying credentials, and the refusal that names where each was given.
import { describe, expect, it } from 'vitest';
import { checkContextHeaders, credentialHeaders, credentialHeadersWarning } from './context-headers.js';

describe('context headers that carry credentials', () => {
  it('tells credential headers from ordinary ones', () => {
    const risky = [
      'authorization',
      'proxy-authorization',
      'cookie',
      'set-cookie',
      'x-api-key',
      'apikey',
      'x-auth-token',
      'x-amz-security-token',
      'x-client-secret',
      'x-auth',
      'mcp-session-id',
      'x-password',
    ];
    const plain = ['x-tenant', 'x-request-id', 'accept-language', 'x-region', 'x-author', 'traceparent'];
    expect(credentialHeaders([...risky, ...plain])).toEqual(risky);
  });

  it('refuses them unless allowed, naming each and where it was given', () => {
    const sources = {
      flags: ['x-tenant', 'authorization'],
      file: { path: '/etc/serve.yaml', headers: ['cookie'] },
    };
    expect(() => checkContextHeaders({ ...sources, allowCredentials: false })).toThrow(
      /\(--context-header authorization, cookie in mcp\.context_headers of \/etc\/serve\.yaml\)/,
    );
    expect(() => checkContextHeaders({ ...sources, allowCredentials: true })).not.toThrow();
    expect(() => checkContextHeaders({ flags: ['x-tenant'], allowCredentials: false })).not.toThrow();
  });

  it('warns only when a credential header is handed out', () => {
    expect(credentialHeadersWarning(['x-tenant'])).toBeUndefined();
    expect(credentialHeadersWarning(['x-tenant', 'cookie'])).toContain('request headers cookie as they are');
  });
});

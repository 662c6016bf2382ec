// Tests of the HTTP header guards (Host, Origin, Accept, version).
import { describe, expect, it } from 'vitest';
import { resolveHandlerOptions } from '../options.js';
import type { RequestView } from '../seam/view.js';
import { accepts, checkHostAndOrigin, checkProtocolVersion, hostnameOf } from './guards.js';

const req = (headers: Record<string, string>): RequestView => ({
  method: 'POST',
  header: (name) => headers[name],
});

describe('header guards', () => {
  it('extracts host names, IPv6 literals included', () => {
    expect(hostnameOf('LocalHost:3000')).toBe('localhost');
    expect(hostnameOf('[::1]:8080')).toBe('[::1]');
    expect(hostnameOf('127.0.0.1')).toBe('127.0.0.1');
  });

  it('with protection on, only loopback Host and Origin pass', () => {
    const options = resolveHandlerOptions();
    expect(checkHostAndOrigin(req({ host: 'localhost:1' }), options)).toBeUndefined();
    expect(checkHostAndOrigin(req({ host: 'evil.com' }), options)?.status).toBe(403);
    expect(checkHostAndOrigin(req({}), options)?.status).toBe(403);
    expect(
      checkHostAndOrigin(req({ host: '127.0.0.1:1', origin: 'http://localhost:5173' }), options),
    ).toBeUndefined();
    expect(checkHostAndOrigin(req({ host: '127.0.0.1:1', origin: 'http://evil.com' }), options)?.status).toBe(
      403,
    );
    expect(checkHostAndOrigin(req({ host: '127.0.0.1:1', origin: 'null' }), options)?.status).toBe(403);
  });

  it('with protection off, Origin must name the request host unless listed', () => {
    const options = resolveHandlerOptions({ dnsRebindingProtection: false });
    expect(checkHostAndOrigin(req({ host: 'mcp.example.com' }), options)).toBeUndefined();
    expect(
      checkHostAndOrigin(req({ host: 'mcp.example.com', origin: 'https://mcp.example.com' }), options),
    ).toBeUndefined();
    expect(
      checkHostAndOrigin(req({ host: 'mcp.example.com', origin: 'https://other.com' }), options)?.status,
    ).toBe(403);
  });

  it('matches Accept types exactly or by wildcard', () => {
    expect(accepts('application/json, text/event-stream', 'text/event-stream')).toBe(true);
    expect(accepts('text/*', 'text/event-stream')).toBe(true);
    expect(accepts('*/*', 'application/json')).toBe(true);
    expect(accepts('application/json', 'text/event-stream')).toBe(false);
    expect(accepts(undefined, 'application/json')).toBe(false);
  });

  it('accepts known protocol versions and refuses others', () => {
    const supported = ['2025-11-25', '2025-03-26'];
    expect(checkProtocolVersion(req({}), supported)).toBeUndefined();
    expect(checkProtocolVersion(req({ 'mcp-protocol-version': '2025-03-26' }), supported)).toBe('2025-03-26');
    expect(checkProtocolVersion(req({ 'mcp-protocol-version': '2099-01-01' }), supported)).toMatchObject({
      status: 400,
    });
  });

  it('validates options with clear errors', () => {
    expect(() => resolveHandlerOptions({ path: 'mcp' })).toThrow(/path must start with "\/"/);
    expect(() => resolveHandlerOptions({ maxBodyBytes: -1 })).toThrow(
      /maxBodyBytes must be a non-negative integer/,
    );
  });
});

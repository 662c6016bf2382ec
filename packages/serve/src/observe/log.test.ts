// Serve's log lines: text or JSON, trace ids from the span a line concerns, and nothing secret.
import { TraceFlags } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { createServeLog } from './log.js';

function capture(format: 'text' | 'json') {
  const lines: string[] = [];
  return { log: createServeLog(format, (line) => lines.push(line)), lines };
}

const span = {
  traceId: '0af7651916cd43dd8448eb211c80319c',
  spanId: 'b7ad6b7169203331',
  traceFlags: TraceFlags.SAMPLED,
};

describe('createServeLog', () => {
  it('writes the plain prefix in text and one JSON object a line with the span ids in JSON', () => {
    const text = capture('text');
    text.log.log('warn', 'plugin "fx" failed', { plugin: 'fx' }, span);
    expect(text.lines).toEqual(['entropic-mcp serve: plugin "fx" failed\n']);
    const json = capture('json');
    json.log.log('warn', 'plugin "fx" failed', { plugin: 'fx', password: 'hunter22' }, span);
    expect(JSON.parse(json.lines[0] as string)).toMatchObject({
      level: 'warn',
      msg: 'plugin "fx" failed',
      plugin: 'fx',
      password: '[REDACTED]',
      trace_id: span.traceId,
      span_id: span.spanId,
    });
  });

  it('masks registered secrets, URL passwords, bearer credentials and JWTs wherever they appear', () => {
    const { log, lines } = capture('json');
    log.secret('s3cr3t-token-value');
    log.log('error', 'redis://app:pa55word@db:6379 said s3cr3t-token-value');
    log.log(
      'info',
      'Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123 and eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig',
    );
    log.pluginOutput('/p/libfx.so', 'line one s3cr3t-token-value\nline two\n');
    const all = lines.join('');
    for (const secret of [
      'pa55word',
      's3cr3t-token-value',
      'abcdefghijklmnopqrstuvwxyz0123',
      'eyJhbGciOiJIUzI1NiJ9',
    ])
      expect(all).not.toContain(secret);
    expect(lines).toHaveLength(4);
    expect(JSON.parse(lines[2] as string)).toMatchObject({
      plugin: 'libfx.so',
      stream: 'stderr',
      msg: 'line one [REDACTED]',
    });
  });

  it('leaves prose alone: "bearer tokens" is not a credential', () => {
    const { log, lines } = capture('text');
    log.report('auth: bearer tokens required: 1 token(s) from /etc/tokens\n');
    expect(lines).toEqual(['auth: bearer tokens required: 1 token(s) from /etc/tokens\n']);
  });

  it('masks before encoding: a credential after a line break or a letter in a JSON line', () => {
    const { log, lines } = capture('json');
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLWJ5dGVz';
    log.log('warn', `its stderr ended with: x\nBearer 0123456789abcdef0123\nfoo${jwt}\npassword: pw-secret`);
    const all = lines.join('');
    for (const value of ['0123456789abcdef0123', 'eyJzdWIiOiJhbGljZSJ9', 'pw-secret'])
      expect(all).not.toContain(value);
    expect(JSON.parse(lines[0] as string).msg).toBe(
      'its stderr ended with: x\nBearer [REDACTED]\nfoo[REDACTED]\npassword: [REDACTED]',
    );
  });

  it('in text, tags each plugin line and escapes its controls, and indents the lines of a message', () => {
    const { log, lines } = capture('text');
    log.pluginOutput(
      '/p/libfx.so',
      'plain\n\u001b[31mred\u001b[0m\rentropic-mcp serve: forged\n\u202eevil\\x\n',
    );
    log.log(
      'warn',
      'plugin "fx" crashed; its stderr ended with: a\nentropic-mcp serve: listening on http://evil',
    );
    expect(lines.join('')).toBe(
      '[plugin libfx.so] plain\n' +
        '[plugin libfx.so] \\x1b[31mred\\x1b[0m\\rentropic-mcp serve: forged\n' +
        '[plugin libfx.so] \\u202eevil\\\\x\n' +
        'entropic-mcp serve: plugin "fx" crashed; its stderr ended with: a\n  entropic-mcp serve: listening on http://evil\n',
    );
    for (const line of lines.join('').split('\n').filter(Boolean))
      expect(
        line.startsWith('[plugin ') ||
          line.startsWith('entropic-mcp serve: plugin "fx"') ||
          line.startsWith('  '),
      ).toBe(true);
  });
});

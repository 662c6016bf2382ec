// Tests of logging: level floors, per-session logs and redaction.
import { describe, expect, it } from 'vitest';
import { initializedPeer } from '../../test/support/in-memory.js';
import { redact } from './logging.js';
import { McpServer } from './server.js';

describe('redact', () => {
  it('masks credential-like keys at any depth and inline credentials (an Authorization value to the end of its line)', () => {
    expect(
      redact({
        user: 'ada',
        password: 'hunter2',
        nested: { api_key: 'k', apiKey: 'k2', 'API-KEY': 'k3', list: [{ access_token: 't' }] },
        Authorization: 'Bearer abc.def',
        clientSecret: 's',
        credentials: { a: 1 },
        note: 'sent Authorization: Bearer abc.def to the API',
        empty: null,
      }),
    ).toEqual({
      user: 'ada',
      password: '[REDACTED]',
      nested: {
        api_key: '[REDACTED]',
        apiKey: '[REDACTED]',
        'API-KEY': '[REDACTED]',
        list: [{ access_token: '[REDACTED]' }],
      },
      Authorization: '[REDACTED]',
      clientSecret: '[REDACTED]',
      credentials: '[REDACTED]',
      note: 'sent Authorization: [REDACTED]',
      empty: null,
    });
  });
});

describe('logging', () => {
  it('server.log reaches every session at or above its setLevel floor, scrubbed', async () => {
    const server = new McpServer({ name: 'l', version: '1' });
    const a = await initializedPeer(server);
    const b = await initializedPeer(server);
    expect(await a.peer.call('logging/setLevel', { level: 'error' })).toEqual({});
    server.log('info', 'db', { query: 'select 1', token: 'xyz' });
    server.log('critical', undefined, 'disk full');
    await a.peer.call('ping');
    await b.peer.call('ping');
    const seenByA = a.peer.notifications.map((m) => m.params);
    const seenByB = b.peer.notifications.map((m) => m.params);
    expect(seenByA).toEqual([{ level: 'critical', data: 'disk full' }]);
    expect(seenByB).toEqual([
      { level: 'info', logger: 'db', data: { query: 'select 1', token: '[REDACTED]' } },
      { level: 'critical', data: 'disk full' },
    ]);
  });

  it('ctx.log goes to the calling session only; redaction can be turned off', async () => {
    const server = new McpServer({ name: 'l', version: '1' }, { redactLogs: false });
    server.addTool({ name: 'chatty' }, (_a, ctx) => {
      ctx.log('debug', { password: 'visible' }, 'tool');
      return { content: [] };
    });
    const a = await initializedPeer(server);
    const b = await initializedPeer(server);
    await a.peer.call('tools/call', { name: 'chatty' });
    await b.peer.call('ping');
    expect(a.peer.notifications.map((m) => m.params)).toEqual([
      { level: 'debug', logger: 'tool', data: { password: 'visible' } },
    ]);
    expect(b.peer.notifications).toHaveLength(0);
  });

  it('refuses a bad level and is unavailable when logging is off', async () => {
    const on = await initializedPeer(new McpServer({ name: 'l', version: '1' }));
    expect((await on.peer.request('logging/setLevel', { level: 'loud' })).error).toMatchObject({
      code: -32602,
      data: { pointer: '/params/level' },
    });
    const server = new McpServer({ name: 'l', version: '1' }, { capabilities: { logging: false } });
    const off = await initializedPeer(server);
    expect(off.peer.initializeResult?.capabilities).not.toHaveProperty('logging');
    expect((await off.peer.request('logging/setLevel', { level: 'info' })).error).toMatchObject({
      code: -32601,
    });
    expect(() => server.log('info', undefined, 'x')).toThrow(
      expect.objectContaining({ code: 'CAPABILITY_NOT_DECLARED' }),
    );
  });
});

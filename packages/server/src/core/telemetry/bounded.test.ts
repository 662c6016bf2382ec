// Names a client makes up never reach a span name or a metric attribute: unknown methods (requests in both eras,
// notifications) are `_OTHER`, methods the server serves keep their names, and an error code outside the range
// JSON-RPC reserves is `_OTHER` too. Read from a real OpenTelemetry SDK registered in this process.
import { beforeEach, describe, expect, it } from 'vitest';
import { initializedPeer } from '../../../test/support/in-memory.js';
import { modernPeer } from '../../../test/support/modern.js';
import { installOtel } from '../../../test/support/otel.js';
import { McpError } from '../errors.js';
import { McpServer } from '../server.js';

const otel = installOtel();

function server(): McpServer {
  const s = new McpServer({ name: 'bounded', version: '1' });
  s.addMethod({ method: 'acme/known' }, () => ({ ok: true }));
  s.addMethod({ method: 'acme/odd-code' }, () => {
    throw new McpError(404, 'not here');
  });
  s.addNotification({ method: 'notifications/acme/seen' }, () => {});
  return s;
}

const methodsOf = async () =>
  new Set((await otel.points('mcp.server.operation.duration')).map((p) => p.attributes['mcp.method.name']));

beforeEach(() => otel.reset());

describe('bounded telemetry names', () => {
  it('folds unknown methods of both eras and unknown notifications into _OTHER, keeping served ones', async () => {
    const { peer } = await initializedPeer(server());
    for (let i = 0; i < 20; i++) {
      expect((await peer.request(`made/up-${i}`)).error).toMatchObject({ code: -32601 });
      await peer.notify(`notifications/made-up-${i}`);
    }
    await peer.call('acme/known');
    await peer.notify('notifications/acme/seen');
    const modern = await modernPeer(server());
    for (let i = 0; i < 20; i++) await modern.modern(`com.example${i}/call`);

    const methods = await methodsOf();
    expect([...methods].filter((m) => /made|example/.test(String(m)))).toEqual([]);
    expect(methods).toContain('_OTHER');
    expect(methods).toContain('acme/known');
    expect(methods).toContain('notifications/acme/seen');
    const spans = otel.spans().filter((s) => s.name === '_OTHER');
    expect(spans).toHaveLength(60);
    expect(spans.map((s) => s.attributes['rpc.method_original'])).toContain('made/up-3');
    expect(otel.spans().filter((s) => /made|example/.test(s.name))).toEqual([]);
  });

  it('keeps a reserved error code as error.type and folds any other code into _OTHER', async () => {
    const { peer } = await initializedPeer(server());
    expect((await peer.request('acme/odd-code')).error).toMatchObject({ code: 404 });
    await peer.request('made/up');
    const types = (await otel.points('mcp.server.operation.duration')).map((p) => [
      p.attributes['mcp.method.name'],
      p.attributes['error.type'],
      p.attributes['rpc.response.status_code'],
    ]);
    expect(types).toContainEqual(['acme/odd-code', '_OTHER', '_OTHER']);
    expect(types).toContainEqual(['_OTHER', '-32601', '-32601']);
  });
});

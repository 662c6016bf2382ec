/**
 * Traces from `entropic-mcp serve` over OTLP (the standard OTEL_* variables) to a receiver in this test: the
 * server span is the child of the client's `_meta.traceparent` and follows the MCP conventions, a plugin call is
 * its child in both hosting modes, a legacy HTTP session and a 2026-07-28 call are both traced, errors are
 * recorded; and the http/protobuf protocol carries them too.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lastMessage, rawRequest } from '@entropic-mcp/test-kit/raw-mcp';
import { waitFor } from '@entropic-mcp/test-kit/wait';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, MODERN } from '../../server/test/support/modern-envelope.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './support/otlp-receiver.js';
import {
  buildFixture,
  connectStdio,
  type HttpServer,
  newClient,
  startHttp,
  tempDir,
  textOf,
} from './support/serve-helpers.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SERVER = 2;
const CLIENT = 3;
const INTERNAL = 1;
const ERROR = 2;
const parent = (span: string) => `00-${TRACE}-${span}-01`;

const dir = tempDir('observe-otlp');
let receiver: OtlpReceiver;
let server: HttpServer | undefined;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  const config = join(dir, 'entropic.yaml');
  buildFixture(dir, 'fx');
  buildFixture(dir, 'fy');
  writeFileSync(config, 'mcp:\n  plugins:\n    - libfx.so\n    - path: libfy.so\n      isolation: none\n');
  server = await startHttp(['--config', config], dir, '127.0.0.1:0', {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_METRICS_EXPORTER: 'none',
    OTEL_BSP_SCHEDULE_DELAY: '50',
    OTEL_SERVICE_NAME: 'otlp-test',
  });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

const named = (name: string, parentSpanId?: string) => (s: ReceivedSpan) =>
  s.name === name && (parentSpanId === undefined || s.parentSpanId === parentSpanId);

describe('serve exports traces over OTLP http/json', () => {
  it('a legacy HTTP session: spans parented on _meta.traceparent, in the conventions, plugin calls as children', async () => {
    const client = newClient();
    const transport = new StreamableHTTPClientTransport(new URL((server as HttpServer).url));
    await client.connect(transport);
    const meta = (span: string) => ({ traceparent: parent(span) });
    expect(
      textOf(
        await client.callTool({ name: 'fx.echo', arguments: { text: 'a' }, _meta: meta('00000000000000a1') }),
      ),
    ).toBe('a');
    expect(
      textOf(
        await client.callTool({ name: 'fy.echo', arguments: { text: 'b' }, _meta: meta('00000000000000b1') }),
      ),
    ).toBe('b');
    const call = await receiver.span(named('tools/call fx.echo', '00000000000000a1'));
    expect(call.traceId).toBe(TRACE);
    expect(call.kind).toBe(SERVER);
    expect(call.scope).toBe('@entropic-mcp/server');
    expect(call.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'fx.echo',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.session.id': transport.sessionId,
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'jsonrpc.request.id': expect.any(String),
    });
    expect(call.status.code ?? 0).toBe(0);
    const isolated = await receiver.span(named('plugin.execute fx.echo', call.spanId));
    expect(isolated).toMatchObject({ traceId: TRACE, kind: CLIENT, scope: '@entropic-mcp/loader' });
    expect(isolated.attributes).toMatchObject({
      'entropic.plugin.name': 'fx',
      'entropic.plugin.isolation': 'process',
    });
    const other = await receiver.span(named('tools/call fy.echo', '00000000000000b1'));
    const inProcess = await receiver.span(named('plugin.execute fy.echo', other.spanId));
    expect(inProcess).toMatchObject({ traceId: TRACE, kind: INTERNAL });
    expect(inProcess.attributes['entropic.plugin.isolation']).toBe('none');
    await receiver.span(
      (s) => s.name === 'initialize' && s.attributes['mcp.session.id'] === transport.sessionId,
    );
    await transport.terminateSession();
    await client.close();
  });

  it('a 2026-07-28 call: parented on its _meta, or else on the HTTP traceparent header', async () => {
    const url = (server as HttpServer).url;
    const headers = { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'fx.echo' };
    const post = (id: number, meta: Record<string, unknown>, extra: Record<string, string> = {}) =>
      rawRequest(
        url,
        'POST',
        {
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'fx.echo', arguments: { text: 'm' }, _meta: { ...envelope(), ...meta } },
        },
        undefined,
        { ...headers, ...extra },
      );
    const viaMeta = await post(1, { traceparent: parent('00000000000000c1') });
    expect(lastMessage(viaMeta.body)?.result).toBeDefined();
    const viaHeader = await post(2, {}, { traceparent: parent('00000000000000c2') });
    expect(lastMessage(viaHeader.body)?.result).toBeDefined();
    for (const span of ['00000000000000c1', '00000000000000c2']) {
      const call = await receiver.span(named('tools/call fx.echo', span));
      expect(call.attributes['mcp.protocol.version']).toBe(MODERN);
      expect(call.attributes['mcp.session.id']).toBeUndefined();
      await receiver.span(named('plugin.execute fx.echo', call.spanId));
    }
  });

  it('records a protocol error by its code and a plugin crash as a tool error under an errored plugin span', async () => {
    const client = newClient();
    const transport = new StreamableHTTPClientTransport(new URL((server as HttpServer).url));
    await client.connect(transport);
    await expect(
      client.callTool({ name: 'fx.nope', arguments: {}, _meta: { traceparent: parent('00000000000000d1') } }),
    ).rejects.toThrow();
    const crashed = await client.callTool({
      name: 'fx.crash',
      arguments: {},
      _meta: { traceparent: parent('00000000000000d2') },
    });
    expect(crashed.isError).toBe(true);
    const refused = await receiver.span(named('tools/call', '00000000000000d1'));
    expect(refused.attributes).toMatchObject({
      'error.type': '-32602',
      'rpc.response.status_code': '-32602',
      'gen_ai.tool.name': 'fx.nope',
    });
    expect(refused.status.code).toBe(ERROR);
    const call = await receiver.span(named('tools/call fx.crash', '00000000000000d2'));
    expect(call.attributes['error.type']).toBe('tool_error');
    expect(call.attributes['rpc.response.status_code']).toBeUndefined();
    expect(call.status.code).toBe(ERROR);
    const plugin = await receiver.span(named('plugin.execute fx.crash', call.spanId));
    expect(plugin.attributes['error.type']).toBe('ENTROPIC_PLUGIN_CRASHED');
    expect(plugin.status).toMatchObject({ code: ERROR, message: expect.stringContaining('SIGSEGV') });
    await transport.terminateSession();
    await client.close();
  });
});

describe('serve exports traces over OTLP http/protobuf', () => {
  it('over stdio: protobuf bodies reach /v1/traces holding the client’s trace id', async () => {
    const posts = receiver.posts.length;
    const stdio = await connectStdio(['--plugin', join(dir, 'libfx.so')], dir, {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      OTEL_BSP_SCHEDULE_DELAY: '50',
    });
    const trace = 'aabbccddeeff00112233445566778899';
    await stdio.client.callTool({
      name: 'fx.echo',
      arguments: { text: 'p' },
      _meta: { traceparent: `00-${trace}-00000000000000e1-01` },
    });
    const id = Buffer.from(trace, 'hex');
    const arrived = () =>
      receiver.posts.slice(posts).find((p) => p.path === '/v1/traces' && p.body.includes(id));
    await waitFor(() => arrived() !== undefined, 'the plugin span posted to /v1/traces', 20_000);
    expect(arrived()?.type).toBe('application/x-protobuf');
    expect(arrived()?.body.includes(Buffer.from('plugin.execute fx.echo'))).toBe(true);
    await stdio.close();
  });
});

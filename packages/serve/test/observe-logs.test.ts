/**
 * `serve --log-format json`: every line serve writes on stderr is one JSON object; a line about a request carries
 * that request's trace and span ids; and the secrets serve was given (a bearer token, the MRTR sealing key, OTLP
 * header credentials) never appear, even when a plugin prints them to its stderr and then crashes.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, startOtlpReceiver } from './support/otlp-receiver.js';
import { newClient, startHttp, tempDir, textOf } from './support/serve-helpers.js';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
let receiver: OtlpReceiver | undefined;

afterAll(async () => {
  await receiver?.close();
});

describe('serve --log-format json', () => {
  it('writes JSON lines with the trace ids of the request they concern, and never a secret it was given', async () => {
    receiver = await startOtlpReceiver();
    const dir = tempDir('observe-logs');
    const token = `tok${randomBytes(16).toString('hex')}`;
    const stateKey = `key${randomBytes(20).toString('hex')}`;
    const otlpSecret = `otlp${randomBytes(12).toString('hex')}`;
    writeFileSync(join(dir, 'tokens'), `${token}\n`);
    writeFileSync(
      join(dir, 'entropic.yaml'),
      `mcp:\n  request_state_key: ${stateKey}\n  plugins:\n    - ${fixture('chatty')}\n`,
    );
    const server = await startHttp(
      [
        '--config',
        join(dir, 'entropic.yaml'),
        '--auth-token-file',
        join(dir, 'tokens'),
        '--log-format',
        'json',
      ],
      dir,
      '127.0.0.1:0',
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer ${otlpSecret}`,
        OTEL_METRICS_EXPORTER: 'none',
        OTEL_BSP_SCHEDULE_DELAY: '50',
      },
    );
    const client = newClient();
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });
    await client.connect(transport);
    const planted = { token, stateKey, otlpSecret };
    expect(textOf(await client.callTool({ name: 'chatty.say', arguments: planted }))).toBe('said');
    const crashed = await client.callTool({
      name: 'chatty.blurt',
      arguments: planted,
      _meta: { traceparent: `00-${TRACE}-00000000000000f1-01` },
    });
    expect(crashed.isError).toBe(true);
    const refused = await fetch(server.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}0` },
    });
    expect(refused.status).toBe(401);
    const pluginSpan = await receiver.span((s) => s.name === 'plugin.execute chatty.blurt');
    await transport.terminateSession();
    await client.close();
    expect(await server.stop()).toBe(0);

    const text = server.stderr();
    for (const secret of Object.values(planted)) expect(text).not.toContain(secret);
    const lines = text.split('\n').filter((line) => line.trim() !== '');
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const record of records)
      expect(record).toMatchObject({
        time: expect.any(String),
        level: expect.any(String),
        msg: expect.any(String),
      });
    // The plugin printed the secrets: its lines are there, masked.
    const said = records.find((r) => r.stream === 'stderr' && String(r.msg).startsWith('chatty: say got'));
    expect(said).toMatchObject({ plugin: 'chatty.so', msg: expect.stringContaining('[REDACTED]') });
    const failure = records.find(
      (r) => r.level === 'warn' && String(r.msg).includes('failed on tool "blurt"'),
    );
    expect(failure).toMatchObject({
      plugin: 'chatty',
      tool: 'blurt',
      code: 'ENTROPIC_PLUGIN_CRASHED',
      trace_id: TRACE,
      span_id: pluginSpan.spanId,
    });
    expect(String(failure?.msg)).toContain('[REDACTED]');
    expect(
      records.some(
        (r) => r.level === 'error' && /host of plugin "chatty" was killed by SIGABRT/.test(String(r.msg)),
      ),
    ).toBe(true);
  });
  it('logs a failed plugin call without OpenTelemetry too, naming the plugin, the tool and the code', async () => {
    const dir = tempDir('observe-logs-plain');
    writeFileSync(join(dir, 'entropic.yaml'), `mcp:\n  plugins:\n    - ${fixture('chatty')}\n`);
    const server = await startHttp(
      ['--config', join(dir, 'entropic.yaml'), '--log-format', 'json'],
      dir,
      '127.0.0.1:0',
      {},
    );
    const client = newClient();
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    await client.connect(transport);
    expect((await client.callTool({ name: 'chatty.blurt', arguments: {} })).isError).toBe(true);
    expect(textOf(await client.callTool({ name: 'chatty.say', arguments: {} }))).toBe('said');
    await transport.terminateSession();
    await client.close();
    expect(await server.stop()).toBe(0);
    const records = server
      .stderr()
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const failures = records.filter((r) => r.level === 'warn' && String(r.msg).includes('failed on tool'));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ plugin: 'chatty', tool: 'blurt', code: 'ENTROPIC_PLUGIN_CRASHED' });
    expect(failures[0]).not.toHaveProperty('trace_id');
  });
});

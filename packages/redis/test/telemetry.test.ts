/**
 * Redis commands of the scale-out mode as OpenTelemetry sees them: a CLIENT span per command under the span
 * active when it was sent (the database conventions' names, no arguments), and failures counted, on a real
 * redis-server (one stopped mid-way for the failure); and the clock skew the shared state measures.
 */

import { type RedisProcess, startRedis } from '@entropic-mcp/test-kit/redis-server';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { afterAll, describe, expect, it } from 'vitest';
import { installOtel } from '../../server/test/support/otel.js';
import { connectRedis, createRedisSharedState } from '../src/index.js';

const otel = installOtel();
let server: RedisProcess | undefined;

afterAll(async () => {
  await server?.stop();
});

describe('Redis commands in telemetry', () => {
  it('spans each command under the active span, and counts the ones that fail', async () => {
    server = await startRedis();
    const redis = await connectRedis(server.url, { autoPipelining: true });
    const parent = trace.getTracer('test').startSpan('tools/call');
    await context.with(trace.setSpan(context.active(), parent), async () => {
      await Promise.all([redis.set('k', 'secret-value'), redis.get('k')]);
      await expect(redis.hget('k', 'field')).rejects.toThrow(/WRONGTYPE/);
    });
    parent.end();
    const spans = otel.spans().filter((s) => s.instrumentationScope.name === '@entropic-mcp/redis');
    expect(spans.map((s) => s.name).sort()).toEqual(['GET', 'HGET', 'SET']);
    for (const span of spans) {
      expect(span.kind).toBe(SpanKind.CLIENT);
      expect(span.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
      expect(span.attributes).toMatchObject({
        'db.system.name': 'redis',
        'db.operation.name': span.name,
        'server.address': '127.0.0.1',
        'server.port': server.port,
      });
      expect(JSON.stringify(span.attributes)).not.toContain('secret-value');
    }
    const failed = spans.find((s) => s.name === 'HGET');
    expect(failed?.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed?.attributes['error.type']).toBe('ReplyError');
    await server.kill(true);
    await expect(redis.get('k')).rejects.toThrow();
    const points = await otel.points('mcp.redis.command.failures');
    const count = (op: string) =>
      points
        .filter((p) => p.attributes['db.operation.name'] === op)
        .reduce((n, p) => n + (p.value as number), 0);
    expect(count('HGET')).toBe(1);
    expect(count('GET')).toBe(1);
    redis.disconnect();
  });

  it("exports this process's clock skew from Redis's, as the shared state's clock measured it", async () => {
    const clockServer = await startRedis();
    const shared = await createRedisSharedState(clockServer.url);
    try {
      const points = await otel.points('mcp.redis.clock.skew');
      expect(points).toHaveLength(1);
      // Both clocks are this machine's: the skew is the measurement's error only.
      expect(Math.abs(points[0]?.value as number)).toBeLessThan(1);
      expect(points[0]?.value).toBe(shared.clock.skewMs / 1000);
    } finally {
      await shared.close();
      await clockServer.stop();
    }
  });
});

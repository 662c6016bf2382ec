// `entropic-mcp serve`'s limits with real processes and the official SDK client: the answer-size cap
// (`--max-answer-bytes`, per plugin `max_answer_bytes:`) refuses a 64 MiB plugin answer with a clear error while
// another client's calls keep flowing; `--rate-limit` answers -32029 over stdio and 429 over HTTP, and with
// `--redis` two processes share one bucket on Redis's clock even when one runs 10 minutes ahead (faketime).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { faketimeEnv } from '@entropic-mcp/test-kit/faketime';
import { type RedisProcess, startRedis } from '@entropic-mcp/test-kit/redis-server';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FAULTY_SOURCE } from './support/faults-cases.js';
import {
  compileFixture,
  connectHttp,
  connectStdio,
  type HttpServer,
  runServe,
  startHttp,
  tempDir,
  textOf,
} from './support/serve-helpers.js';

let dir: string;
let faulty: string;
let calm: string;
const stops: (() => Promise<unknown>)[] = [];

beforeAll(() => {
  dir = tempDir('serve-limits');
  // `huge` answers 64 MiB; `calm` is the stock fixture (`huge` = 5 MiB).
  faulty = compileFixture(FAULTY_SOURCE, 'faulty', join(dir, 'libfaulty.so'), [
    '-DHUGE_BYTES=(64u*1024u*1024u)',
  ]);
  calm = compileFixture(FAULTY_SOURCE, 'calm', join(dir, 'libcalm.so'));
});
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

async function http(args: string[], env?: Record<string, string>): Promise<HttpServer> {
  const server = await startHttp(args, undefined, undefined, env);
  stops.push(() => server.stop());
  return server;
}

async function client(url: string): Promise<Client> {
  const c = await connectHttp(url);
  stops.push(() => c.close());
  return c;
}

describe('serve: the answer-size cap', () => {
  it('refuses a 64 MiB answer with an error naming its size and the limit; another client keeps being served', async () => {
    const server = await http(['--plugin', faulty, '--plugin', calm]);
    const [big, other] = await Promise.all([client(server.url), client(server.url)]);
    let settled = false;
    const huge = big
      .callTool({ name: 'faulty.huge', arguments: {} }, undefined, { timeout: 120_000 })
      .finally(() => {
        settled = true;
      });
    // The other client's calls are answered while the huge one is being refused.
    const answered: string[] = [];
    for (let i = 0; i < 20 && (!settled || answered.length < 3); i++)
      answered.push(textOf(await other.callTool({ name: 'calm.echo', arguments: {} })));
    const result = await huge;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/"huge" answered 67108\d{3} bytes, more than the 16777216 allowed/);
    expect(answered.every((text) => text === 'ok')).toBe(true);
    // The plugin serves again.
    expect(textOf(await big.callTool({ name: 'faulty.echo', arguments: {} }))).toBe('ok');
  });

  it('--max-answer-bytes sets the cap, and a config entry’s max_answer_bytes wins (0: no limit)', async () => {
    const config = join(dir, 'caps.yaml');
    writeFileSync(config, `mcp:\n  plugins:\n    - path: ${calm}\n      max_answer_bytes: 0\n`);
    const stock = compileFixture(FAULTY_SOURCE, 'small', join(dir, 'libsmall.so'));
    const server = await http(['--config', config, '--plugin', stock, '--max-answer-bytes', '1048576']);
    const c = await client(server.url);
    const refused = await c.callTool({ name: 'small.huge', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/answered 5242\d{3} bytes, more than the 1048576 allowed/);
    const whole = await c.callTool({ name: 'calm.huge', arguments: {} });
    expect(textOf(whole)).toHaveLength(5 * 1024 * 1024);
  });
});

describe('serve: rate limits', () => {
  it('over stdio the SDK client gets McpError -32029 naming the limit, with data.retryAfterMs', async () => {
    const server = await connectStdio(['--plugin', calm, '--rate-limit', 'calm.echo=0.5/1']);
    stops.push(() => server.close());
    expect(textOf(await server.client.callTool({ name: 'calm.echo', arguments: {} }))).toBe('ok');
    const error = (await server.client.callTool({ name: 'calm.echo', arguments: {} }).catch((e) => e)) as {
      code?: number;
      message?: string;
      data?: { retryAfterMs?: number };
    };
    expect(error.code).toBe(-32029);
    expect(error.message).toMatch(/Rate limit exceeded: tool "calm.echo" allows 0.5 a second \(burst 1\)/);
    expect(error.data?.retryAfterMs).toBeGreaterThan(1000);
    // Other tools have no rule.
    expect(textOf(await server.client.callTool({ name: 'calm.spin', arguments: {} }))).toBeDefined();
  });

  it('refuses bad rules at start-up, naming the option', async () => {
    const run = await runServe(['--plugin', calm, '--rate-limit', 'calm.echo=fast']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/--rate-limit calm.echo expects requests a second above 0/);
  });

  describe('with --redis', () => {
    let redis: RedisProcess;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(async () => {
      await redis?.stop();
    });

    it('two processes share one bucket, one of them 10 minutes ahead; the SDK client sees 429', async () => {
      const args = ['--plugin', calm, '--redis', redis.url, '--rate-limit', 'calm.echo=0.01/2'];
      const [onTime, ahead] = await Promise.all([http(args), http(args, faketimeEnv('+10m'))]);
      const [a, b] = await Promise.all([client(onTime.url), client(ahead.url)]);
      const echo = (c: Client) =>
        c.callTool({ name: 'calm.echo', arguments: {} }).then(
          (r) => textOf(r),
          (e: { code?: number; message?: string }) => e,
        );
      expect(await echo(a)).toBe('ok');
      expect(await echo(b)).toBe('ok');
      for (const c of [a, b]) {
        const refused = (await echo(c)) as { code?: number; message?: string };
        // SDK v1 1.32.2: StreamableHTTPError, its code the HTTP status, its message the body.
        expect(refused.code).toBe(429);
        expect(refused.message).toMatch(/-32029.*Rate limit exceeded: tool .*calm.echo/);
      }
    });
  });
});

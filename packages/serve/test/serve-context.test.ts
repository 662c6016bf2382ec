// `entropic-mcp serve` with the slow example (a plugin with the plugin context), driven by the official clients:
// SDK v1 (2025-11-25) and v2 in both eras get one progress notification per step of slow.count, its log message
// when their log level lets it through, and its structured result; a cancel midway ends the call early and the
// plugin host is the same process before and after. The same in-process. A structured result the tool's outputSchema
// refuses is an internal error naming where; the caller's JWT subject and scopes reach the plugin.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtAuthArgs, startIssuer, type TestIssuer } from './support/jwt-issuer.js';
import {
  childPids,
  connectHttp,
  type HttpServer,
  newClient,
  REPO_ROOT,
  startHttp,
  tempDir,
  textOf,
} from './support/serve-helpers.js';

const SLOW = join(REPO_ROOT, 'examples', 'plugins', 'slow', 'build', 'slow.so');
const MODERN = '2026-07-28';

type Progress = { progress: number; total?: number; message?: string };
interface AnyClient {
  callTool(
    params: { name: string; arguments: Record<string, unknown> },
    schema?: unknown,
    options?: { onprogress?: (p: Progress) => void; signal?: AbortSignal; timeout?: number },
  ): Promise<unknown>;
  close(): Promise<void>;
}

async function v2(url: string, era: 'legacy' | 'modern'): Promise<AnyClient> {
  const versionNegotiation = era === 'modern' ? { mode: { pin: MODERN } } : { mode: 'legacy' as const };
  const client = new ClientV2({ name: `serve-context-${era}`, version: '1.0.0' }, { versionNegotiation });
  await client.connect(new HttpV2(new URL(url)));
  // v2's callTool takes (params, options); v1's (params, resultSchema, options).
  return {
    callTool: (params, _schema, options) => client.callTool(params, options),
    close: () => client.close(),
  };
}

const CLIENTS: [string, (url: string) => Promise<AnyClient>][] = [
  ['SDK v1, 2025-11-25', async (url) => (await connectHttp(url)) as unknown as AnyClient],
  ['SDK v2, 2025-11-25', (url) => v2(url, 'legacy')],
  ['SDK v2, 2026-07-28', (url) => v2(url, 'modern')],
];

/** The plugin host processes serving `server` (isolated mode): children of the serve process. */
function hosts(server: HttpServer): number[] {
  return childPids(server.child.pid as number);
}

for (const isolation of ['process', 'none'] as const) {
  describe(`serve --isolation ${isolation}: slow.count through the plugin context`, () => {
    let server: HttpServer;
    beforeAll(async () => {
      server = await startHttp(['--plugin', SLOW, '--plugin', fixture('voice'), '--isolation', isolation]);
    });
    afterAll(async () => {
      await server?.stop();
    });

    for (const [name, connect] of CLIENTS) {
      it(`${name}: one progress notification per step, then the count and its structured result`, async () => {
        const client = await connect(server.url);
        try {
          const seen: Progress[] = [];
          const result = await client.callTool(
            { name: 'slow.count', arguments: { to: 5, delay_ms: 40 } },
            undefined,
            { onprogress: (p) => seen.push(p) },
          );
          expect(textOf(result)).toBe('5');
          expect((result as { structuredContent?: unknown }).structuredContent).toEqual({
            count: 5,
            cancelled: false,
          });
          expect(seen).toEqual(
            [1, 2, 3, 4, 5].map((i) => ({ progress: i, total: 5, message: `counted ${i} of 5` })),
          );
        } finally {
          await client.close();
        }
      });

      it(`${name}: a cancel midway ends the call early; the plugin host is the same process`, async () => {
        const client = await connect(server.url);
        try {
          const before = hosts(server);
          const controller = new AbortController();
          const steps: number[] = [];
          let cancelledAt = 0;
          // 50 steps of 200 ms: left alone it would take 10 s.
          const call = client.callTool(
            { name: 'slow.count', arguments: { to: 50, delay_ms: 200 } },
            undefined,
            {
              signal: controller.signal,
              onprogress: (p) => {
                steps.push(p.progress);
                if (p.progress === 2) {
                  cancelledAt = Date.now();
                  controller.abort();
                }
              },
            },
          );
          await expect(call).rejects.toThrow();
          // The instance serves the next call once the cancelled one has returned. A plugin that never saw the
          // cancel flag would count on to 50 first: (50 - 2) × 200 ms = 9.6 s after the cancel. Seeing the flag,
          // it returns within 10 ms (the slice it sleeps); half the time left is a bound no loaded machine
          // reaches and a plugin counting on cannot meet. (The client's progress handler is no witness: the SDK
          // drops it when the call is aborted.)
          const next = await client.callTool({ name: 'slow.count', arguments: { to: 1, delay_ms: 0 } });
          const ended = Date.now() - cancelledAt;
          expect(textOf(next)).toBe('1');
          expect(steps).toEqual([1, 2]);
          expect(ended).toBeLessThan(((50 - 2) * 200) / 2);
          if (isolation === 'process') {
            expect(before).toHaveLength(2); // slow's host and voice's
            expect(hosts(server)).toEqual(before);
          }
        } finally {
          await client.close();
        }
      }, 30_000);
    }

    it('a structured result the outputSchema refuses is -32603 naming its JSON pointer', async () => {
      const client = await connectHttp(server.url);
      try {
        const ok = await client.callTool({ name: 'voice.structured', arguments: { json: '{"n":7}' } });
        expect(ok.structuredContent).toEqual({ n: 7 });
        for (const [json, pointer] of [
          ['{"n":"seven"}', '/structuredContent/n'],
          ['{"n":1.5}', '/structuredContent/n'],
        ] as const) {
          const refused: unknown = await client
            .callTool({ name: 'voice.structured', arguments: { json } })
            .then(
              () => undefined,
              (error: unknown) => error,
            );
          expect(refused).toBeInstanceOf(McpError);
          expect(refused).toMatchObject({ code: -32603, data: { pointer } });
        }
      } finally {
        await client.close();
      }
    });

    it('logs reach a client whose level lets them through, not one whose level is above them', async () => {
      const client = await connectHttp(server.url);
      const logs: unknown[] = [];
      client.setNotificationHandler(
        (await import('@modelcontextprotocol/sdk/types.js')).LoggingMessageNotificationSchema,
        (n) => {
          logs.push(n.params);
        },
      );
      try {
        await client.setLoggingLevel('info');
        await client.callTool({ name: 'slow.count', arguments: { to: 1, delay_ms: 30 } });
        expect(logs).toContainEqual({
          level: 'info',
          logger: 'slow',
          data: { counting_to: 1, delay_ms: 30 },
        });
        logs.length = 0;
        await client.setLoggingLevel('error');
        await client.callTool({ name: 'slow.count', arguments: { to: 1, delay_ms: 30 } });
        expect(logs).toEqual([]);
      } finally {
        await client.close();
      }
    });
  });
}

describe('serve: the caller as a plugin with the plugin context reads it', () => {
  let server: HttpServer;
  beforeAll(async () => {
    const dir = tempDir('serve-context-auth');
    const tokens = join(dir, 'tokens');
    writeFileSync(tokens, 'secret-token-0123456789 files:read files:write\n');
    server = await startHttp([
      '--plugin',
      fixture('voice'),
      '--auth-token-file',
      tokens,
      '--context-header',
      'X-Tenant',
    ]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('scopes, protocol revision, request id, and only the headers the operator allowed', async () => {
    const client = newClient();
    const headers = {
      Authorization: 'Bearer secret-token-0123456789',
      'X-Tenant': 'acme',
      'X-Other': 'hidden',
    };
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }),
    );
    try {
      const text = textOf(await client.callTool({ name: 'voice.whoami', arguments: {} }));
      // subject | scopes | protocol | request id | x-tenant | authorization (not allowed: never seen)
      expect(text).toMatch(/^\(null\)\|files:read files:write\|2025-11-25\|\d+\|acme\|\(null\)$/);
    } finally {
      await client.close();
    }
  });
});

describe('serve: mcp.context_headers in the config file, with no --context-header', () => {
  it.each([
    ['listed', '[X-Tenant, x-region]', 'acme'],
    ['not listed', '[x-region]', '(null)'],
  ])(
    'a header %s there reaches the plugin as the config says',
    async (_, list, seen) => {
      const dir = tempDir('serve-context-yaml');
      const config = join(dir, 'serve.yaml');
      writeFileSync(
        config,
        `mcp:\n  plugins: [${JSON.stringify(fixture('voice'))}]\n  context_headers: ${list}\n`,
      );
      const server = await startHttp(['--config', config]);
      const client = newClient();
      try {
        const headers = { 'X-Tenant': 'acme', 'X-Region': 'eu' };
        await client.connect(
          new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }),
        );
        const text = textOf(await client.callTool({ name: 'voice.whoami', arguments: {} }));
        // subject | scopes | protocol | request id | x-tenant | authorization
        expect(text.split('|')[4]).toBe(seen);
      } finally {
        await client.close();
        await server.stop();
      }
    },
    30_000,
  );
});

describe('serve --auth-jwks: the JWT subject and scopes as a plugin with the plugin context reads them', () => {
  const AUDIENCE = 'https://mcp.example.test/mcp';
  let issuer: TestIssuer;
  let server: HttpServer;
  beforeAll(async () => {
    issuer = await startIssuer();
    server = await startHttp(['--plugin', fixture('voice'), ...jwtAuthArgs(issuer, AUDIENCE)]);
  });
  afterAll(async () => {
    await server?.stop();
    await issuer?.close();
  });

  it.each([
    [
      'the scope claim',
      { sub: 'ada@example.test', scope: 'files:read files:write' },
      'ada@example.test',
      'files:read files:write',
    ],
    ['the scp array', { sub: 'grace', scp: ['reports:read'] }, 'grace', 'reports:read'],
    ['no sub and no scopes', { jti: 'anonymous' }, '(null)', ''],
  ])('%s', async (_, claims, subject, scopes) => {
    const token = await issuer.sign({ aud: AUDIENCE, ...claims });
    const client = newClient();
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const text = textOf(await client.callTool({ name: 'voice.whoami', arguments: {} }));
      // subject | scopes | protocol | request id | x-tenant | authorization
      expect(text.split('|').slice(0, 3)).toEqual([subject, scopes, '2025-11-25']);
    } finally {
      await client.close();
    }
  });
});

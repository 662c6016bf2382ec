// The fetch handler on the real Bun, Deno and workerd binaries from npm: each example of examples/runtimes/ is
// started on its runtime and called by the official SDK clients, a tools/call in each era the runtime serves.
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Launched, launch, RUNTIMES, type RuntimeName } from '../src/launch.mjs';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';

type Mode = 'pin' | 'legacy';
const textOf = (result: unknown): unknown =>
  ((result as { content?: { text?: string }[] }).content ?? [])[0]?.text;

function clientV2(mode: Mode): ClientV2 {
  return new ClientV2(
    { name: `runtimes-${mode}`, version: '1.0.0' },
    { versionNegotiation: mode === 'pin' ? { mode: { pin: MODERN } } : { mode: 'legacy' } },
  );
}

for (const name of Object.keys(RUNTIMES) as RuntimeName[]) {
  describe(`${RUNTIMES[name].title}: examples/runtimes/${name}`, () => {
    let server: Launched;

    beforeAll(async () => {
      server = await launch(name);
    });

    afterAll(async () => {
      await server?.stop();
    });

    it(`serves ${MODERN} (stateless) to the v2 client`, async () => {
      const client = clientV2('pin');
      await client.connect(new HttpV2(new URL(server.url)));
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
        const result = await client.callTool({ name: 'echo', arguments: { text: `modern on ${name}` } });
        expect(result.isError).toBeFalsy();
        expect(textOf(result)).toBe(`modern on ${name}`);
      } finally {
        await client.close();
      }
    });

    it(`serves ${LEGACY} in a session to the v2 client`, async () => {
      const client = clientV2('legacy');
      const transport = new HttpV2(new URL(server.url));
      await client.connect(transport);
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(LEGACY);
        expect(transport.sessionId).toEqual(expect.any(String));
        for (const n of [1, 2]) {
          const result = await client.callTool({
            name: 'echo',
            arguments: { text: `legacy ${n} on ${name}` },
          });
          expect(textOf(result)).toBe(`legacy ${n} on ${name}`);
        }
      } finally {
        await client.close();
      }
    });

    it(`serves ${LEGACY} in a session to the v1 client`, async () => {
      const client = new ClientV1({ name: 'runtimes-v1', version: '1.0.0' });
      const transport = new HttpV1(new URL(server.url));
      await client.connect(transport);
      try {
        expect(client.getServerVersion()).toMatchObject({ name: `${name}-example` });
        expect(transport.sessionId).toEqual(expect.any(String));
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(['echo']);
        const result = await client.callTool({ name: 'echo', arguments: { text: `v1 on ${name}` } });
        expect(textOf(result)).toBe(`v1 on ${name}`);
        await transport.terminateSession();
      } finally {
        await client.close();
      }
    });

    it('refuses a call that breaks the schema, and keeps serving', async () => {
      const client = clientV2('pin');
      await client.connect(new HttpV2(new URL(server.url)));
      try {
        const refused = await client.callTool({ name: 'echo', arguments: { text: 7 } });
        expect(refused.isError).toBe(true);
        expect(String(textOf(refused))).toMatch(/text/);
        expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'still here' } }))).toBe(
          'still here',
        );
      } finally {
        await client.close();
      }
    });
  });
}

/**
 * A plugin thread that outlives its call cannot talk into the next one. Through `entropic-mcp serve --http` with
 * JWT auth, in both hosting modes: alice's call to the hostile `lingering` fixture starts a thread that keeps
 * calling back through her call's context (log, progress, set_structured, cancelled, header, and reading the
 * subject; through the kept pointer and through a copy of the struct) after the call returned. bob's calls that
 * follow on the same instance (150 quick ones, then one the thread floods while it runs) must get none of it: no log
 * message, no progress, no structuredContent; and the plugin must have seen every late callback refused, and never
 * bob's subject through alice's context.
 * Real parts: the compiled fixture, the official SDK v1 client, RS256 JWTs from a local JWKS.
 */

import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtAuthArgs, startIssuer, type TestIssuer } from './support/jwt-issuer.js';
import { type HttpServer, newClient, startHttp, textOf } from './support/serve-helpers.js';

const AUDIENCE = 'https://mcp.example.test/mcp';
const ENTROPIC_ERROR_INVALID_STATE = 3;
/** Past WIRE_CONTEXT_QUARANTINE (64, native/wire/context.h): contexts of returned calls get reused meanwhile. */
const QUICK_CALLS = 150;

let issuer: TestIssuer;
beforeAll(async () => {
  issuer = await startIssuer();
});
afterAll(async () => {
  await issuer?.close();
});

async function clientOf(url: string, subject: string) {
  const token = await issuer.sign({ aud: AUDIENCE, sub: subject, scope: 'tools' });
  const client = newClient();
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  const logs: unknown[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (note) => {
    logs.push(note.params);
  });
  await client.setLoggingLevel('debug');
  return { client, logs };
}

interface Report {
  rounds: number;
  accepted: number;
  log: number;
  progress: number;
  structured: number;
  cancelled: number;
  subjects: string;
}

for (const isolation of ['process', 'none'] as const) {
  describe(`serve --isolation ${isolation}: late callbacks of a call that returned`, () => {
    let server: HttpServer;
    beforeAll(async () => {
      server = await startHttp([
        '--plugin',
        fixture('lingering'),
        '--isolation',
        isolation,
        ...jwtAuthArgs(issuer, AUDIENCE),
      ]);
    });
    afterAll(async () => {
      await server?.stop();
    });

    it("reach neither the next caller's notifications nor its structuredContent, and do nothing", async () => {
      const alice = await clientOf(server.url, 'alice');
      const bob = await clientOf(server.url, 'bob');
      try {
        const started = await alice.client.callTool({ name: 'lingering.start', arguments: {} });
        expect(textOf(started)).toBe('started');

        // More calls than the loader holds a returned call's context back before reusing it, while the thread
        // calls back all the time: the context it keeps must not be handed to any of them.
        for (let i = 0; i < QUICK_CALLS; i++) {
          const quick = await bob.client.callTool({ name: 'lingering.quick', arguments: {} });
          expect(textOf(quick)).toBe('quick');
          expect(quick.structuredContent).toBeUndefined();
        }
        const progress: unknown[] = [];
        const victim = await bob.client.callTool({ name: 'lingering.victim', arguments: {} }, undefined, {
          onprogress: (p) => progress.push(p),
          timeout: 60_000,
        });
        expect(textOf(victim)).toBe('victim bob');
        const reported = await bob.client.callTool({ name: 'lingering.report', arguments: {} }, undefined, {
          onprogress: (p) => progress.push(p),
          timeout: 60_000,
        });
        const report = JSON.parse(textOf(reported)) as Report;

        // The thread called back all through bob's victim call (40 rounds of 2 × 5 callbacks at least)...
        expect(report.rounds).toBeGreaterThanOrEqual(40);
        // ...and bob heard none of it.
        expect(bob.logs).toEqual([]);
        expect(progress).toEqual([]);
        expect(victim.structuredContent).toBeUndefined();
        expect(reported.structuredContent).toBeUndefined();
        // The plugin was told: every late callback refused, cancelled() says stop, no header, no subject of bob's.
        expect(report).toMatchObject({
          accepted: 0,
          log: ENTROPIC_ERROR_INVALID_STATE,
          progress: ENTROPIC_ERROR_INVALID_STATE,
          structured: ENTROPIC_ERROR_INVALID_STATE,
          cancelled: 1,
        });
        expect(report.subjects.split(',')).not.toContain('bob');

        // The instance serves on: a new call of alice's is hers alone, with no late structured result.
        const again = await alice.client.callTool({ name: 'lingering.victim', arguments: {} });
        expect(textOf(again)).toBe('victim alice');
        expect(again.structuredContent).toBeUndefined();
      } finally {
        await alice.client.close();
        await bob.client.close();
      }
    }, 120_000);
  });
}

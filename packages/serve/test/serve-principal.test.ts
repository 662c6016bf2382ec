/**
 * Sessions bound to their principal, through `entropic-mcp serve --http` with `--auth-token-file` and
 * a JWKS: a second token holding the owner's `Mcp-Session-Id` can neither call tools in it, nor open
 * or replay its GET and POST streams (with the owner's pending elicitation), nor answer that
 * elicitation, nor DELETE it — each verb is answered exactly as an unknown session (404). Once in one
 * process without Redis, once in two processes on a real Redis behind HAProxy (round robin), where the
 * intruder's requests reach processes that must restore the session from the registry first.
 */

import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCALE_TOOLS, startScaleCluster } from '@entropic-mcp/test-kit/cluster';
import {
  callTool,
  openLegacySession,
  openSse,
  rawRequest,
  type SseReader,
} from '@entropic-mcp/test-kit/raw-mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Deployment, useDeployment } from './support/deployment.js';
import { jwtAuthArgs, startIssuer, type TestIssuer } from './support/jwt-issuer.js';
import { startHttp, tempDir, textOf, waitFor } from './support/serve-helpers.js';

const AUDIENCE = 'https://mcp.example.test/mcp';
const OWNER = 'owner-token-0123456789abcdef';
const OTHER = 'other-token-0123456789abcdef';

let issuer: TestIssuer;
let authArgs: string[];

beforeAll(async () => {
  issuer = await startIssuer();
  const tokens = join(tempDir('principal'), 'tokens');
  writeFileSync(tokens, `${OWNER}\n${OTHER}\n`);
  authArgs = ['--auth-token-file', tokens];
  authArgs.push(...jwtAuthArgs(issuer, AUDIENCE));
});
afterAll(async () => {
  await issuer?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const jwt = (claims: Record<string, unknown>) => issuer.sign({ aud: AUDIENCE, ...claims });

const PAIRS: [string, () => Promise<[string, string]>][] = [
  ['another static token', async () => [OWNER, OTHER]],
  ['another JWT without sub', async () => [await jwt({ jti: 'a' }), await jwt({ jti: 'b' })]],
  ['a JWT of another subject', async () => [await jwt({ sub: 'alice' }), await jwt({ sub: 'mallory' })]],
];

const DEPLOYMENTS: [string, () => Promise<Deployment>][] = [
  [
    'one process, no Redis',
    async () => {
      const server = await startHttp([...authArgs, '--tools-module', SCALE_TOOLS]);
      return { endpoint: server.url, stop: () => server.stop() };
    },
  ],
  ['two processes on Redis behind HAProxy', () => startScaleCluster(2, { args: authArgs })],
];

describe.each(DEPLOYMENTS)('%s', (_name, deploy) => {
  const deployed = useDeployment(deploy);

  /** What any verb gets for a session that does not exist: the refusal an intruder must get too. */
  async function unknownSession(token: string) {
    const answer = await rawRequest(deployed.endpoint, 'DELETE', undefined, randomUUID(), bearer(token));
    expect(answer.status).toBe(404);
    return answer.body;
  }

  it.each(PAIRS)('refuses %s every verb on the session, as if it did not exist', async (_what, make) => {
    const [owner, intruder] = await make();
    const session = await openLegacySession(deployed.endpoint, bearer(owner), { elicitation: {} });
    const streams: SseReader[] = [];
    try {
      const get = await openSse(deployed.endpoint, 'GET', session, { headers: bearer(owner) });
      streams.push(get);
      expect(get.status).toBe(200);
      const call = await openSse(deployed.endpoint, 'POST', session, {
        headers: bearer(owner),
        body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'scale.ask', arguments: {} } },
      });
      streams.push(call);
      await waitFor(
        () => call.events.some((e) => e.data.includes('elicitation/create')),
        30_000,
        'the elicitation',
      );
      const asked = call.events.find((e) => e.data.includes('elicitation/create'));
      const elicitation = JSON.parse(asked?.data ?? '{}') as { id: string | number };
      const primed = call.events[0]?.id;
      expect(primed).toBeDefined();

      const notFound = await unknownSession(intruder);
      const as = bearer(intruder);
      // Three rounds, so that behind HAProxy both processes see each verb.
      for (let round = 0; round < 3; round++) {
        const attempts = [
          await callTool(deployed.endpoint, session, 10 + round, 'scale.pid', {}, as),
          await rawRequest(deployed.endpoint, 'GET', undefined, session, {
            ...as,
            accept: 'text/event-stream',
          }),
          await rawRequest(deployed.endpoint, 'GET', undefined, session, {
            ...as,
            accept: 'text/event-stream',
            'last-event-id': String(primed),
          }),
          await rawRequest(
            deployed.endpoint,
            'POST',
            {
              jsonrpc: '2.0',
              id: elicitation.id,
              result: { action: 'accept', content: { name: 'Mallory' } },
            },
            session,
            as,
          ),
          await rawRequest(deployed.endpoint, 'DELETE', undefined, session, as),
        ];
        for (const attempt of attempts) {
          expect(attempt.status).toBe(404);
          expect(attempt.body).toBe(notFound);
          expect(attempt.body).not.toContain('What is your name');
        }
      }

      // The owner's session went on untouched: its elicitation is answered by the owner alone.
      const answered = await rawRequest(
        deployed.endpoint,
        'POST',
        { jsonrpc: '2.0', id: elicitation.id, result: { action: 'accept', content: { name: 'Ada' } } },
        session,
        bearer(owner),
      );
      expect(answered.status).toBe(202);
      await waitFor(() => call.events.some((e) => e.data.includes('Hello, Ada')), 30_000, 'the answer');
      expect(call.events.some((e) => e.data.includes('Mallory'))).toBe(false);
      const pid = await callTool(deployed.endpoint, session, 20, 'scale.pid', {}, bearer(owner));
      expect(pid.status).toBe(200);
      expect(textOf(pid.message?.result)).toMatch(/^\d+:/);
      expect((await rawRequest(deployed.endpoint, 'DELETE', undefined, session, bearer(owner))).status).toBe(
        200,
      );
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  it('serves the session to a new token of the same subject (one principal)', async () => {
    const session = await openLegacySession(
      deployed.endpoint,
      bearer(await jwt({ sub: 'alice', jti: 'old' })),
    );
    const renewed = bearer(await jwt({ sub: 'alice', jti: 'new' }));
    for (let i = 0; i < 2; i++) {
      const pid = await callTool(deployed.endpoint, session, 30 + i, 'scale.pid', {}, renewed);
      expect(pid.status).toBe(200);
    }
    expect((await rawRequest(deployed.endpoint, 'DELETE', undefined, session, renewed)).status).toBe(200);
  });
});

/**
 * One client abandoning thousands of GET streams through a real HAProxy (`option forwardfor`, the
 * serve processes trusting it with `--trusted-proxy`) must not make a node refuse other clients. The
 * attacker comes from 127.0.0.2 and leaves every stream without a DELETE; legacy (SDK v1) and
 * 2026-07-28 (SDK v2) clients from 127.0.0.1 are served afterwards. Without the per-client limits the
 * node reached its 1,024 connections and refused everyone. Once with Redis, once without.
 */

import { request } from 'node:http';
import { SCALE_TOOLS, startScaleCluster } from '@entropic-mcp/test-kit/cluster';
import { startHaproxy } from '@entropic-mcp/test-kit/haproxy';
import { LEGACY_VERSION } from '@entropic-mcp/test-kit/raw-mcp';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { type Deployment, useDeployment } from './support/deployment.js';
import { connectHttp, startHttp, textOf } from './support/serve-helpers.js';

const TRUST = ['--trusted-proxy', '127.0.0.1'];
const ATTEMPTS = 1_200;

const DEPLOYMENTS: [string, () => Promise<Deployment>][] = [
  [
    'with Redis',
    () => startScaleCluster(1), // it trusts HAProxy, as documented
  ],
  [
    'without Redis',
    async () => {
      const server = await startHttp(['--tools-module', SCALE_TOOLS, ...TRUST]);
      const proxy = await startHaproxy([Number(new URL(server.url).port)]);
      return {
        endpoint: `${proxy.url}/mcp`,
        stop: async () => {
          await proxy.stop();
          await server.stop();
        },
      };
    },
  ],
];

/** One request from 127.0.0.2; a GET is abandoned (its socket destroyed) as soon as its head arrives. */
function attack(endpoint: string, method: 'POST' | 'GET', session?: string) {
  return new Promise<{ status: number; session?: string; body: string }>((resolve) => {
    const headers: Record<string, string> = {
      accept: method === 'GET' ? 'text/event-stream' : 'application/json, text/event-stream',
      'content-type': 'application/json',
    };
    if (session !== undefined) {
      headers['mcp-session-id'] = session;
      headers['mcp-protocol-version'] = LEGACY_VERSION;
    }
    const req = request(endpoint, { method, headers, localAddress: '127.0.0.2', agent: false }, (res) => {
      const status = res.statusCode ?? 0;
      const id = res.headers['mcp-session-id'];
      if (method === 'GET' && status === 200) {
        req.destroy();
        resolve({ status, body: '' });
        return;
      }
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
      });
      res.on('end', () => resolve({ status, body, ...(typeof id === 'string' ? { session: id } : {}) }));
      res.on('error', () => resolve({ status, body }));
    });
    req.on('error', () => resolve({ status: 0, body: '' }));
    req.end(
      method === 'POST'
        ? JSON.stringify({
            jsonrpc: '2.0',
            id: 0,
            method: 'initialize',
            params: {
              protocolVersion: LEGACY_VERSION,
              capabilities: {},
              clientInfo: { name: 'x', version: '1' },
            },
          })
        : undefined,
    );
  });
}

describe.each(DEPLOYMENTS)('thousands of abandoned streams through HAProxy, %s', (_name, deploy) => {
  const deployed = useDeployment(deploy);

  it('leaves legacy and 2026-07-28 clients of other addresses served', async () => {
    const statuses = new Map<number, number>();
    const refusals = new Set<string>();
    const note = (answer: { status: number; body: string }) => {
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 429) refusals.add(JSON.parse(answer.body).error.message);
    };
    let next = 0;
    const worker = async () => {
      while (next < ATTEMPTS) {
        next++;
        const init = await attack(deployed.endpoint, 'POST');
        note(init);
        if (init.session !== undefined) note(await attack(deployed.endpoint, 'GET', init.session));
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    // The attacker was stopped by its own limits, named in each refusal.
    expect(statuses.get(429) ?? 0).toBeGreaterThan(ATTEMPTS / 2);
    for (const refusal of refusals)
      expect(refusal).toMatch(/\((maxSessionsPerClient|maxStreamsPerClient)\)$/);

    const legacy = await connectHttp(deployed.endpoint);
    try {
      for (let i = 0; i < 3; i++) {
        const answer = await legacy.callTool({ name: 'scale.pid', arguments: {} });
        expect(textOf(answer)).toMatch(/^\d+:/);
      }
    } finally {
      await legacy.close();
    }
    const modern = new ClientV2(
      { name: 'victim', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await modern.connect(new TransportV2(new URL(deployed.endpoint)));
    try {
      for (let i = 0; i < 3; i++) {
        const answer = await modern.callTool({ name: 'scale.pid', arguments: {} });
        expect(textOf(answer)).toMatch(/^\d+:/);
      }
    } finally {
      await modern.close();
    }
  });
});

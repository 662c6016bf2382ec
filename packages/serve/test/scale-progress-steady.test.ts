/**
 * Progress through the HAProxy of docs/scaling.md arrives as steadily as it is sent: a call streams progress
 * every 50 ms for 3 s through real HAProxy, and the client stamps each event as it comes off the socket.
 * Without `option http-no-delay` HAProxy holds small writes back and they come in bursts of 3–4, about 200 ms
 * apart (most gaps then near 0); with it most gaps stay near the send interval. The criterion is generous so a
 * loaded machine passes: fewer than half the gaps may be shorter than a fifth of the interval.
 */

import { request } from 'node:http';
import { SCALE_TOOLS } from '@entropic-mcp/test-kit/cluster';
import { startDeployedHaproxy } from '@entropic-mcp/test-kit/deployed-haproxy';
import type { HaproxyProcess } from '@entropic-mcp/test-kit/haproxy';
import { MODERN_VERSION } from '@entropic-mcp/test-kit/raw-mcp';
import { type HttpServer, startHttp } from '@entropic-mcp/test-kit/serve-process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const EVERY_MS = 50;
const FOR_MS = 3000;

let server: HttpServer | undefined;
let proxy: HaproxyProcess | undefined;

beforeAll(async () => {
  server = await startHttp(['--tools-module', SCALE_TOOLS]);
  proxy = await startDeployedHaproxy([Number(new URL(server.url).port)]);
});

afterAll(async () => {
  await proxy?.stop();
  await server?.stop();
});

/** Posts a 2026-07-28 `scale.stream` call with a progress token; resolves with each progress event's arrival time. */
function streamProgress(endpoint: string): Promise<number[]> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'scale.stream',
      arguments: { ms: FOR_MS, every: EVERY_MS },
      _meta: {
        progressToken: 'steady',
        'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'steady', version: '1.0.0' },
      },
    },
  });
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN_VERSION,
    'mcp-method': 'tools/call',
    'mcp-name': 'scale.stream',
  };
  return new Promise((resolve, reject) => {
    const req = request(endpoint, { method: 'POST', headers }, (res) => {
      if (!String(res.headers['content-type']).startsWith('text/event-stream'))
        reject(new Error(`expected an SSE answer, got ${res.statusCode} ${res.headers['content-type']}`));
      const arrivals: number[] = [];
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        // Every event in one chunk came off the socket together: one arrival time for all of them.
        const now = performance.now();
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          if (buffer.slice(0, end).includes('"notifications/progress"')) arrivals.push(now);
          buffer = buffer.slice(end + 2);
        }
      });
      res.on('end', () => resolve(arrivals));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('progress through the documented HAProxy', () => {
  it('arrives at a steady pace, not in bursts', async () => {
    const arrivals = await streamProgress(`${proxy?.url}/mcp`);
    expect(arrivals.length).toBeGreaterThanOrEqual(FOR_MS / EVERY_MS / 2);
    const gaps = arrivals.slice(1).map((t, i) => t - (arrivals[i] as number));
    const bunched = gaps.filter((gap) => gap < EVERY_MS / 5).length;
    const shown = gaps.map((gap) => Math.round(gap)).join(' ');
    expect(bunched, `gaps between progress events (ms): ${shown}`).toBeLessThan(gaps.length / 2);
  }, 60_000);
});

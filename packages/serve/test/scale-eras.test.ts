/**
 * The official v2 client (@modelcontextprotocol/client 2.4.0) through a real HAProxy (round robin, no
 * stickiness) in front of two `serve --redis` processes, in each version-negotiation mode: list, call
 * (C plugin and tools module), elicitation, and a tools list change raised on the process that does
 * NOT hold the client's listen stream (2026-07-28) or GET stream (legacy) reaching the client.
 */

import { ECHO_PLUGIN, type ScaleCluster, startScaleCluster } from '@entropic-mcp/test-kit/cluster';
import { waitFor } from '@entropic-mcp/test-kit/wait';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from './support/serve-helpers.js';

let cluster: ScaleCluster;

beforeAll(async () => {
  cluster = await startScaleCluster(2);
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

/** One request the client made: its JSON-RPC method (or GET) and the backend HAProxy chose. */
interface Hop {
  readonly what: string;
  readonly status: number;
  readonly servedBy: string;
}

/** A fetch that notes, for each request, what it carried and which serve process answered it. */
function recordingFetch(hops: Hop[]): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    let what = init?.method ?? 'GET';
    if (typeof init?.body === 'string') {
      const body = JSON.parse(init.body) as { method?: string };
      what = body.method ?? 'response';
    }
    hops.push({ what, status: res.status, servedBy: res.headers.get('x-served-by') ?? '' });
    return res;
  };
}

const MODES = [
  { mode: 'auto', era: '2026-07-28' },
  { mode: 'pin', era: '2026-07-28' },
  { mode: 'legacy', era: '2025-11-25' },
] as const;

describe.each(MODES)('v2 client through HAProxy, versionNegotiation $mode', ({ mode, era }) => {
  it(`negotiates ${era}, lists, calls, elicits, and hears a list change raised on the other process`, async () => {
    const hops: Hop[] = [];
    const client = new Client(
      { name: `scale-${mode}`, version: '1.0.0' },
      {
        capabilities: { elicitation: {} },
        versionNegotiation: mode === 'pin' ? { mode: { pin: '2026-07-28' } } : { mode },
      },
    );
    client.setRequestHandler('elicitation/create', async () => ({
      action: 'accept',
      content: { name: 'Grace' },
    }));
    let changes = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changes++;
    });
    const transport = new StreamableHTTPClientTransport(new URL(cluster.endpoint), {
      fetch: recordingFetch(hops),
    });
    await client.connect(transport);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(era);
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['scale.pid', 'scale.ask', 'scale.add']));
      if (ECHO_PLUGIN !== undefined) {
        expect(names).toContain('echo.echo');
        const echoed = await client.callTool({ name: 'echo.echo', arguments: { text: `via ${mode}` } });
        expect(textOf(echoed)).toBe(`via ${mode}`);
      }
      const pids = new Set<string>();
      for (let i = 0; i < 4; i++) {
        const answer = textOf(await client.callTool({ name: 'scale.pid', arguments: {} }));
        pids.add(answer.split(':')[0] as string);
      }
      expect(pids.size).toBe(2); // both processes served this client
      // Legacy: a server→client request; 2026-07-28: an input_required round whose retry carries the
      // sealed requestState (opened by whichever process gets it: the key is shared).
      for (let i = 0; i < 2; i++) {
        const greeting = textOf(await client.callTool({ name: 'scale.ask', arguments: {} }));
        expect(greeting).toMatch(/^Hello, Grace from \d+$/);
      }

      // The stream that carries list changes: the listen POST (2026-07-28) or the GET (legacy).
      const subscription = era === '2026-07-28' ? await client.listen({ toolsListChanged: true }) : undefined;
      const streamHop = () => hops.find((h) => h.what === (subscription ? 'subscriptions/listen' : 'GET'));
      await waitFor(() => streamHop()?.status === 200, 'the stream that carries list changes');
      const holder = cluster.node(streamHop()?.servedBy);
      let crossed = false;
      for (let i = 0; i < 6 && !crossed; i++) {
        const before = changes;
        const raisedBy = Number(textOf(await client.callTool({ name: 'scale.add', arguments: {} })));
        const hop = hops.filter((h) => h.what === 'tools/call').at(-1) as Hop;
        expect(raisedBy).toBe(cluster.node(hop.servedBy).child.pid); // the tool ran where HAProxy says
        await waitFor(() => changes > before, `the list change raised by process ${raisedBy}`);
        crossed = raisedBy !== holder.child.pid;
      }
      expect(crossed).toBe(true);
      await subscription?.close();
    } finally {
      await client.close();
    }
  });
});

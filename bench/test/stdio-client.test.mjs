// The stdio load generator's two client patterns: the per-message client writes each request on its own, the
// batching one writes every request it sends at one moment together. Driven against the bare stdio server.
import { afterEach, describe, expect, it } from 'vitest';
import { StdioPeer } from '../src/stdio-client.mjs';
import { stdioTargets } from '../src/targets.mjs';

const bare = stdioTargets().find((t) => t.name === 'bare');
let peer;

afterEach(async () => {
  await peer?.close();
  peer = undefined;
});

/** Runs `calls` calls at 16 in flight and counts the writes to the server's stdin and the requests in them. */
async function writesOf(client, calls) {
  peer = new StdioPeer(bare);
  await peer.initialize();
  const stdin = peer.child.stdin;
  const write = stdin.write.bind(stdin);
  const writes = [];
  stdin.write = (chunk) => {
    writes.push(chunk);
    return write(chunk);
  };
  const run = await peer.run(calls, 16, client);
  const requests = writes.map((text) => text.split('\n').filter((line) => line.length > 0).length);
  return { run, writes: writes.length, requests };
}

describe('StdioPeer client patterns', () => {
  it('writes one message per write with the per-message client', async () => {
    const { run, writes, requests } = await writesOf('each', 200);
    expect(run.latencies).toHaveLength(200);
    expect(writes).toBe(200);
    expect(requests.every((n) => n === 1)).toBe(true);
  });

  it('writes the first window in one write with the batching client', async () => {
    const { run, writes, requests } = await writesOf('batch', 200);
    expect(run.latencies).toHaveLength(200);
    expect(requests[0]).toBe(16);
    expect(writes).toBeLessThan(200);
    expect(requests.reduce((a, b) => a + b, 0)).toBe(200);
  });

  it('refuses an unknown pattern', () => {
    peer = new StdioPeer(bare);
    expect(() => peer.run(1, 1, 'lines')).toThrow(/unknown client pattern "lines"/);
  });
});

// The stdio transport: framing, CRLF, split frames and back-pressure.
import { PassThrough, Writable } from 'node:stream';
import { holdFor, waitFor } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it } from 'vitest';
import { McpServer, text } from '../src/index.js';
import { StdioServerTransport } from '../src/stdio/index.js';
import { Peer } from './support/peer.js';
import { connectStdioStreams } from './support/stdio-streams.js';

function server() {
  const s = new McpServer({ name: 's', version: '1' });
  s.addTool({ name: 'echo' }, (args) => ({ content: [text(String(args.text))] }));
  s.addTool({ name: 'slow' }, async () => {
    await holdFor(50); // still in flight when the input ends
    return { content: [text('finished')] };
  });
  return s;
}

const init = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
});

describe('stdio transport', () => {
  it('tolerates CRLF line endings and blank lines', async () => {
    const { input, handle } = await connectStdioStreams(server());
    const peer = new Peer(handle);
    input.write(`${init}\r\n\r\n\n`);
    input.write(
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"crlf"}}}\r\n',
    );
    const answer = await peer.waitFor((m) => m.id === 1);
    expect(answer.result).toEqual({ content: [{ type: 'text', text: 'crlf' }] });
    expect(peer.received.filter((m) => m.error !== undefined)).toHaveLength(0);
  });

  it('reassembles a frame split across many chunks, including inside a multi-byte character', async () => {
    const { input, handle } = await connectStdioStreams(server());
    const peer = new Peer(handle);
    input.write(`${init}\n`);
    const frame = Buffer.from(
      `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'é🎉' } } })}\n`,
    );
    for (let i = 0; i < frame.length; i++) input.write(frame.subarray(i, i + 1));
    const answer = await peer.waitFor((m) => m.id === 2);
    expect(answer.result).toEqual({ content: [{ type: 'text', text: 'é🎉' }] });
  });

  it('answers an over-long frame with -32600, skips it, and keeps the session', async () => {
    const s = server();
    const { input, handle } = await connectStdioStreams(s, { maxFrameBytes: 1024 });
    const peer = new Peer(handle);
    input.write(`${init}\n`);
    await peer.waitFor((m) => m.id === 0);
    // One oversize frame in one chunk, one spread over chunks, then a normal request.
    input.write(`${'x'.repeat(3000)}\n`);
    input.write('{"jsonrpc":"2.0","id":9,"method":"ping","params":{"pad":"');
    input.write('y'.repeat(2000));
    input.write('"}}\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
    const ok = await peer.waitFor((m) => m.id === 3);
    expect(ok.result).toEqual({});
    const errors = peer.received.filter((m) => m.error !== undefined);
    expect(errors).toHaveLength(2);
    for (const e of errors) {
      expect(e).toMatchObject({ id: null, error: { code: -32600 } });
      expect((e.error as { message: string }).message).toMatch(/exceeds the 1024-byte limit/);
    }
    expect(peer.received.some((m) => m.id === 9)).toBe(false);
  });

  it('coalesces the sends of one tick into one write', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const writes: string[] = [];
    const write = output.write.bind(output);
    output.write = ((chunk: string, ...rest: never[]) => {
      writes.push(String(chunk));
      return write(chunk, ...rest);
    }) as typeof output.write;
    const transport = new StdioServerTransport({ input, output });
    await server().connect(transport);
    const burst = [
      init,
      ...Array.from({ length: 50 }, (_, i) => JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: 'ping' })),
    ];
    input.write(`${burst.join('\n')}\n`);
    await waitFor(() => writes.join('').split('\n').filter(Boolean).length >= 51, 'the 51 answers');
    const lines = writes.join('').split('\n').filter(Boolean);
    expect(lines).toHaveLength(51);
    expect(writes.length).toBeLessThanOrEqual(2);
  });

  it('on input end, answers what is in flight, then closes', async () => {
    const s = server();
    const { input, handle, session } = await connectStdioStreams(s);
    const peer = new Peer(handle);
    let closed = false;
    session.onclose = () => {
      closed = true;
    };
    input.write(`${init}\n`);
    input.write('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"slow"}}\n');
    input.end();
    const answer = await peer.waitFor((m) => m.id === 5);
    expect(answer.result).toEqual({ content: [{ type: 'text', text: 'finished' }] });
    await waitFor(() => closed, 'the session to close');
    expect(closed).toBe(true);
    expect(s.sessions.size).toBe(0);
  });

  it('closes the session, without crashing, when its output breaks (EPIPE)', async () => {
    const input = new PassThrough();
    const output = new Writable({
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    const transport = new StdioServerTransport({ input, output });
    const s = server();
    const session = await s.connect(transport);
    const errors: Error[] = [];
    session.onerror = (error) => errors.push(error);
    input.write(`${init}\n`);
    await waitFor(() => session.closed, 'the session to close');
    expect(session.closed).toBe(true);
    expect(errors.map((e) => e.message)).toContain('write EPIPE');
    expect(s.sessions.size).toBe(0);
  });
});

// Tests of the host channel frames: encoding, batching and reassembly.
import { describe, expect, it } from 'vitest';
import { encodeRequest, FrameReader, Op, RequestBatch } from './frames.js';

function answer(id: number, status: number, payload: string): Buffer {
  const body = Buffer.from(payload);
  const frame = Buffer.alloc(9 + body.length);
  frame.writeUInt32LE(5 + body.length, 0);
  frame.writeUInt32LE(id, 4);
  frame[8] = status;
  body.copy(frame, 9);
  return frame;
}

describe('frames', () => {
  it('encodes a request as length, id, op and NUL-terminated parts', () => {
    const frame = encodeRequest(7, Op.execute, ['echo', '{"é":1}']);
    expect(frame.readUInt32LE(0)).toBe(frame.length - 4);
    expect(frame.readUInt32LE(4)).toBe(7);
    expect(frame[8]).toBe(Op.execute);
    expect(frame.subarray(9).toString()).toBe('echo\0{"é":1}\0');
  });
  it('encodes a batch into one buffer holding the same frames in order, and starts empty again', () => {
    const batch = new RequestBatch();
    const frames: [number, Op, string[]][] = [
      [1, Op.execute, ['echo', '{"text":"ü"}']],
      [2, Op.listTools, []],
      [3, Op.configure, ['{}']],
    ];
    for (const [id, op, parts] of frames) batch.add(id, op, parts);
    expect(batch.length).toBe(3);
    const out = batch.take();
    expect(out).toEqual(Buffer.concat(frames.map(([id, op, parts]) => encodeRequest(id, op, parts))));
    expect(batch.length).toBe(0);
    batch.add(4, Op.close, []);
    expect(batch.take()).toEqual(encodeRequest(4, Op.close, []));
  });
  it('reassembles answers split at every byte and several in one chunk', () => {
    const stream = Buffer.concat([answer(1, 0, 'first'), answer(2, 1, ''), answer(3, 0, 'x'.repeat(70000))]);
    for (const step of [1, 3, 4096, stream.length]) {
      const seen: [number, number, string][] = [];
      const reader = new FrameReader((id, status, buf, start, end) =>
        seen.push([id, status, buf.toString('utf8', start, end)]),
      );
      for (let at = 0; at < stream.length; at += step) reader.push(stream.subarray(at, at + step));
      expect(seen).toEqual([
        [1, 0, 'first'],
        [2, 1, ''],
        [3, 0, 'x'.repeat(70000)],
      ]);
    }
  });
});

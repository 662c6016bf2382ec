// Tests of the loader's side of the plugin wire: request text and answer frame reassembly.
import { describe, expect, it } from 'vitest';
import { FrameReader, Op, requestText, SPIN_HINT } from './frames.js';

function answer(id: number, status: number, payload: string): Buffer {
  const body = Buffer.from(payload);
  const frame = Buffer.alloc(9 + body.length);
  frame.writeUInt32LE(5 + body.length, 0);
  frame.writeUInt32LE(id, 4);
  frame[8] = status;
  body.copy(frame, 9);
  return frame;
}

describe('wire frames', () => {
  it('writes a request as its op letter and id, then each part, every field NUL-ended', () => {
    expect(requestText(7, Op.execute, 'echo', '{"é":1}')).toBe('E7\0echo\0{"é":1}\0');
    expect(requestText(12, Op.configure, '{}')).toBe('C12\0{}\0');
    expect(requestText(4294967294, Op.listTools)).toBe('L4294967294\0');
    expect(requestText(3, Op.close)).toBe('X3\0');
    expect(SPIN_HINT).toBe('S0\0');
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

/**
 * The framed protocol spoken with the plugin host (`native/host/protocol.h` is the other side): every frame is
 * a little-endian u32 body length, then `u32 id, u8 op|status, payload`. Requests carry NUL-terminated strings;
 * answers carry the plugin's string raw, so a 5 MB answer is copied once and never escaped.
 */

export const Op = {
  listTools: 1,
  execute: 2,
  configure: 3,
  setWorkingDir: 4,
  close: 5,
} as const;
export type Op = (typeof Op)[keyof typeof Op];

export const Status = {
  string: 0,
  null: 1,
  code: 2,
  ready: 3,
  loadError: 4,
  badRequest: 5,
} as const;

const HEADER = 9;

/** One request frame; `parts` are written each followed by a NUL. */
export function encodeRequest(id: number, op: Op, parts: readonly string[]): Buffer {
  let size = HEADER;
  for (const part of parts) size += Buffer.byteLength(part) + 1;
  const frame = Buffer.allocUnsafe(size);
  frame.writeUInt32LE(size - 4, 0);
  frame.writeUInt32LE(id, 4);
  frame[8] = op;
  let at = HEADER;
  for (const part of parts) {
    at += frame.write(part, at);
    frame[at++] = 0;
  }
  return frame;
}

export type FrameHandler = (id: number, status: number, payload: Buffer) => void;

/** Cuts a byte stream into answer frames. Chunks are joined only when a frame is complete (no quadratic copy). */
export class FrameReader {
  #chunks: Buffer[] = [];
  #total = 0;
  readonly #onFrame: FrameHandler;

  constructor(onFrame: FrameHandler) {
    this.#onFrame = onFrame;
  }

  push(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#total += chunk.length;
    if (this.#total < 4) return;
    let first = this.#chunks[0]!;
    if (first.length < 4) first = this.#join();
    if (this.#total < 4 + first.readUInt32LE(0)) return;
    this.#drain(this.#chunks.length === 1 ? first : this.#join());
  }

  #join(): Buffer {
    const all = Buffer.concat(this.#chunks, this.#total);
    this.#chunks = [all];
    return all;
  }

  #drain(buf: Buffer): void {
    let at = 0;
    while (buf.length - at >= 4) {
      const end = at + 4 + buf.readUInt32LE(at);
      if (buf.length < end) break;
      this.#onFrame(buf.readUInt32LE(at + 4), buf[at + 8]!, buf.subarray(at + HEADER, end));
      at = end;
    }
    const rest = buf.subarray(at);
    this.#chunks = rest.length > 0 ? [rest] : [];
    this.#total = rest.length;
  }
}

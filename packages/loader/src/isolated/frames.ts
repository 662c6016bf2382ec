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

/** Set on a request's op when it was sent with at most two calls in flight (`protocol.h`, OP_FLAG_LONE). */
export const LONE_FLAG = 0x80;

const HEADER = 9;

function frameSize(parts: readonly string[]): number {
  let size = HEADER;
  for (const part of parts) size += Buffer.byteLength(part) + 1;
  return size;
}

/** Writes one request frame of `size` bytes at `at`; returns where the next frame starts. */
function encodeInto(
  out: Buffer,
  at: number,
  size: number,
  id: number,
  op: number,
  parts: readonly string[],
): number {
  out.writeUInt32LE(size - 4, at);
  out.writeUInt32LE(id, at + 4);
  out[at + 8] = op;
  let end = at + HEADER;
  for (const part of parts) {
    end += out.write(part, end);
    out[end++] = 0;
  }
  return end;
}

/** One request frame; `parts` are written each followed by a NUL. */
export function encodeRequest(id: number, op: Op, parts: readonly string[]): Buffer {
  const size = frameSize(parts);
  const frame = Buffer.allocUnsafe(size);
  encodeInto(frame, 0, size, id, op, parts);
  return frame;
}

/**
 * The request frames of one burst of calls, encoded at `take()` into a single buffer: one allocation and one
 * pipe write per burst, however many calls it holds.
 */
export class RequestBatch {
  #ids: number[] = [];
  #ops: Op[] = [];
  #parts: (readonly string[])[] = [];
  #sizes: number[] = [];
  #total = 0;

  get length(): number {
    return this.#ids.length;
  }

  add(id: number, op: Op, parts: readonly string[]): void {
    const size = frameSize(parts);
    this.#ids.push(id);
    this.#ops.push(op);
    this.#parts.push(parts);
    this.#sizes.push(size);
    this.#total += size;
  }

  /**
   * Every frame added since the last `take`, in order, in one buffer; the batch is empty afterwards. `lone` marks
   * them with LONE_FLAG.
   */
  take(lone = false): Buffer {
    const out = Buffer.allocUnsafe(this.#total);
    const flag = lone ? LONE_FLAG : 0;
    let at = 0;
    for (let i = 0; i < this.#ids.length; i++) {
      at = encodeInto(out, at, this.#sizes[i]!, this.#ids[i]!, this.#ops[i]! | flag, this.#parts[i]!);
    }
    this.#ids.length = 0;
    this.#ops.length = 0;
    this.#parts.length = 0;
    this.#sizes.length = 0;
    this.#total = 0;
    return out;
  }
}

/** One answer frame; its payload is `buf[start, end)`, to be read before the handler returns. */
export type FrameHandler = (id: number, status: number, buf: Buffer, start: number, end: number) => void;

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
      this.#onFrame(buf.readUInt32LE(at + 4), buf[at + 8]!, buf, at + HEADER, end);
      at = end;
    }
    if (at === buf.length) {
      this.#chunks = [];
      this.#total = 0;
      return;
    }
    const rest = buf.subarray(at);
    this.#chunks = [rest];
    this.#total = rest.length;
  }
}

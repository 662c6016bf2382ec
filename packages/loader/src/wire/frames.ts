/**
 * The plugin wire as the loader speaks it, the same in both hosting modes (`native/wire/wire.h` is the other
 * side, in the host process and in the in-process addon). Requests go out as text: a burst of calls is one
 * string. Answers come back as binary frames: a little-endian u32 body length, then `u32 id, u8 status,
 * payload`, the plugin's string raw, so a 5 MB answer is copied once and never escaped.
 */

/** Request heads: one letter, then the decimal id (`wire.h`). */
export const Op = {
  listTools: 'L',
  execute: 'E',
  executeWithContext: 'F',
  configure: 'C',
  setWorkingDir: 'W',
  close: 'X',
} as const;
export type Op = (typeof Op)[keyof typeof Op];

/** Answer statuses (`wire.h`). */
export const Status = {
  string: 0,
  null: 1,
  code: 2,
  ready: 3,
  failed: 4,
  plain: 5,
  progress: 6,
  log: 7,
  structured: 8,
} as const;

/** Bits of the features a ready frame may carry after the plugin's name (`wire.h`). */
export const Feature = { context: 1 } as const;

/** Ends a burst of lone calls: the instance looks for the next request for a moment before it sleeps. */
export const SPIN_HINT = 'S0\0';

const HEADER = 9;

/** The request text of one call: its head and its parts, each NUL-ended. */
export function requestText(id: number, op: Op, first?: string, second?: string, third?: string): string {
  if (first === undefined) return `${op}${id}\0`;
  if (second === undefined) return `${op}${id}\0${first}\0`;
  if (third === undefined) return `${op}${id}\0${first}\0${second}\0`;
  return `${op}${id}\0${first}\0${second}\0${third}\0`;
}

/** A cancellation on the host's cancel pipe: the call's id, a little-endian u32 (`wire.h`). */
export function cancelFrame(id: number): Buffer {
  const frame = Buffer.allocUnsafe(4);
  frame.writeUInt32LE(id, 0);
  return frame;
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

/**
 * Newline-delimited framing over byte chunks: complete lines go to `onLine` (a trailing CR is
 * dropped, empty lines are skipped); a line longer than `maxFrameBytes` is discarded up to its
 * newline and reported once through `onOversize`.
 */

export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private discarding = false;

  constructor(
    private readonly maxFrameBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOversize: (bytes: number) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    let nl = chunk.indexOf(10, start);
    while (nl !== -1) {
      if (this.discarding) {
        this.discarding = false;
        this.onOversize(this.pendingBytes + nl - start);
        this.pendingBytes = 0;
      } else if (this.pendingBytes > 0) {
        const total = this.pendingBytes + nl - start;
        this.pending.push(chunk.subarray(start, nl));
        const joined = Buffer.concat(this.pending, total);
        this.pending = [];
        this.pendingBytes = 0;
        if (total > this.maxFrameBytes) this.onOversize(total);
        else this.emit(joined, 0, total);
      } else if (nl - start > this.maxFrameBytes) {
        this.onOversize(nl - start);
      } else {
        this.emit(chunk, start, nl);
      }
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    if (start < chunk.length) this.keep(chunk, start);
  }

  private keep(chunk: Buffer, start: number): void {
    const bytes = chunk.length - start;
    if (this.discarding) {
      this.pendingBytes += bytes;
      return;
    }
    this.pendingBytes += bytes;
    if (this.pendingBytes > this.maxFrameBytes) {
      this.pending = [];
      this.discarding = true;
      return;
    }
    // Copy: the stream may reuse the chunk's memory.
    this.pending.push(Buffer.from(chunk.subarray(start)));
  }

  private emit(buffer: Buffer, start: number, end: number): void {
    if (end > start && buffer[end - 1] === 13) end--;
    if (end === start) return;
    this.onLine(buffer.toString('utf8', start, end));
  }

  /** Whatever is left when the input ends (a last line without a newline). */
  end(): void {
    if (this.discarding) {
      this.discarding = false;
      this.onOversize(this.pendingBytes);
    } else if (this.pendingBytes > 0) {
      const joined = Buffer.concat(this.pending, this.pendingBytes);
      this.emit(joined, 0, joined.length);
    }
    this.pending = [];
    this.pendingBytes = 0;
  }
}

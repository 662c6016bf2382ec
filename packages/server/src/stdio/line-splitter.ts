/**
 * Newline-delimited framing over decoded text chunks: complete lines go to `onLine` (a trailing CR
 * is dropped, empty lines are skipped); a line longer than `maxFrameBytes` (UTF-8 bytes) is
 * discarded up to its newline and reported once through `onOversize`.
 *
 * Lengths are counted in UTF-16 units, which bound UTF-8 bytes from both sides (units ≤ bytes ≤
 * 3 × units), so the exact byte length is computed only for lines long enough to matter.
 */

export class LineSplitter {
  private pending = '';
  private discarding = false;
  private discarded = 0;

  constructor(
    private readonly maxFrameBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOversize: (bytes: number) => void,
  ) {}

  push(chunk: string): void {
    let start = 0;
    let nl = chunk.indexOf('\n');
    while (nl !== -1) {
      if (this.discarding) {
        this.discarding = false;
        this.onOversize(this.discarded + Buffer.byteLength(chunk.slice(start, nl)));
        this.discarded = 0;
      } else if (this.pending.length > 0) {
        const line = this.pending + chunk.slice(start, nl);
        this.pending = '';
        this.emit(line);
      } else {
        this.emit(chunk.slice(start, nl));
      }
      start = nl + 1;
      nl = chunk.indexOf('\n', start);
    }
    if (start < chunk.length) this.keep(start === 0 ? chunk : chunk.slice(start));
  }

  private keep(rest: string): void {
    if (this.discarding) {
      this.discarded += Buffer.byteLength(rest);
      return;
    }
    this.pending += rest;
    // More units than the cap (plus a CR that will be dropped) means more bytes: stop keeping it.
    if (this.pending.length > this.maxFrameBytes + 1) {
      this.discarded = Buffer.byteLength(this.pending);
      this.pending = '';
      this.discarding = true;
    }
  }

  private emit(line: string): void {
    let end = line.length;
    if (end > 0 && line.charCodeAt(end - 1) === 13) end--;
    if (end === 0) return;
    const text = end === line.length ? line : line.slice(0, end);
    if (text.length * 3 > this.maxFrameBytes) {
      const bytes = Buffer.byteLength(text);
      if (bytes > this.maxFrameBytes) {
        this.onOversize(bytes);
        return;
      }
    }
    this.onLine(text);
  }

  /** Whatever is left when the input ends (a last line without a newline). */
  end(): void {
    if (this.discarding) {
      this.discarding = false;
      this.onOversize(this.discarded);
    } else if (this.pending.length > 0) {
      const line = this.pending;
      this.pending = '';
      this.emit(line);
    }
    this.discarded = 0;
  }
}

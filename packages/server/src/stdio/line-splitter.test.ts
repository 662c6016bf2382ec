// Property tests of the stdio line splitter: chunking, CR, limits.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSplitter } from './line-splitter.js';

function run(chunks: string[], max: number) {
  const lines: string[] = [];
  const oversize: number[] = [];
  const splitter = new LineSplitter(
    max,
    (line) => lines.push(line),
    (bytes) => oversize.push(bytes),
  );
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return { lines, oversize };
}

/** Cut `text` at the given fractions of its length. */
function cut(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => Math.floor(c * text.length)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let from = 0;
  for (const p of points) {
    chunks.push(text.slice(from, p));
    from = p;
  }
  chunks.push(text.slice(from));
  return chunks.filter((c) => c.length > 0);
}

const line = fc.string({ unit: fc.constantFrom('a', 'é', '🎉', ' ', '"', '{', '\r'), maxLength: 40 });

describe('LineSplitter', () => {
  it('yields the same lines however the input is chunked, dropping CR before LF and empty lines', () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 10 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true })),
        (ls, cuts) => {
          const text = ls.map((l) => `${l}\n`).join('');
          const expected = ls.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l)).filter((l) => l.length > 0);
          const { lines, oversize } = run(cut(text, cuts), 1 << 20);
          expect(lines).toEqual(expected);
          expect(oversize).toEqual([]);
        },
      ),
    );
  });

  it('reports each line over the byte cap once, with its UTF-8 size, and keeps the others', () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 10 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true })),
        (ls, cuts) => {
          const max = 20;
          const text = ls.map((l) => `${l}\n`).join('');
          const clean = ls.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
          const { lines, oversize } = run(cut(text, cuts), max);
          expect(lines).toEqual(clean.filter((l) => l.length > 0 && Buffer.byteLength(l) <= max));
          // A line over the cap is reported with a size above the cap (the CR may be counted).
          const tooLong = clean.filter((l) => Buffer.byteLength(l) > max);
          expect(oversize.length).toBe(tooLong.length);
          for (const bytes of oversize) expect(bytes).toBeGreaterThan(max);
        },
      ),
    );
  });

  it('keeps a line of exactly the cap followed by CR, however it is chunked', () => {
    const text = `${'a'.repeat(20)}\r\n`;
    for (let i = 1; i < text.length; i++) {
      expect(run([text.slice(0, i), text.slice(i)], 20).lines).toEqual(['a'.repeat(20)]);
    }
    expect(run(['a'.repeat(21), '\n'], 20).oversize).toEqual([21]);
  });

  it('delivers a last line without a newline at the end of input', () => {
    expect(run(['{"a":', '1}'], 100).lines).toEqual(['{"a":1}']);
  });
});

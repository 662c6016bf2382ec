/**
 * The in-process addon's `spinRead`, when the addon is there: an isolated call that waits alone for its answer
 * reads the host's pipe on the JS thread for a few microseconds instead of sleeping until libuv wakes it.
 * Isolated hosting works without the addon; it then simply does not spin.
 */
import { optionalAddon } from './binding.js';

const SCRATCH = 64 * 1024;

export type SpinRead = (fd: number, micros: number) => Buffer | undefined;

let cached: SpinRead | null | undefined;

/** A reader returning a fresh Buffer of what arrived within `micros`, or undefined; undefined without the addon. */
export function spinReader(): SpinRead | undefined {
  if (cached === undefined) cached = make();
  return cached ?? undefined;
}

function make(): SpinRead | null {
  const read = optionalAddon()?.spinRead;
  if (typeof read !== 'function') return null;
  const scratch = Buffer.allocUnsafe(SCRATCH);
  return (fd, micros) => {
    const n = read(fd, scratch, micros);
    return n > 0 ? Buffer.from(scratch.subarray(0, n)) : undefined;
  };
}

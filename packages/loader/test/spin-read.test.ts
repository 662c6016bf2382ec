// The addon's spinRead on a real pipe: what a lone isolated call uses to read the host's answer without sleeping.

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { waitFor } from '@entropic-mcp/test-kit/wait';
import { afterEach, describe, expect, it } from 'vitest';
import { loadAddon } from '../src/addon/binding.js';
import { spinReader } from '../src/addon/spin-read.js';

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/**
 * A `cat` child whose stdout nobody reads through libuv: the test reads its fd directly. Pausing the stream is not
 * enough (a socket starts reading as it is made, and libuv would take the bytes on the loop's next turn), so the
 * handle's reading is stopped too.
 */
function cat() {
  const child = spawn('cat', [], { stdio: ['pipe', 'pipe', 'ignore'] });
  children.push(child);
  child.stdout.pause();
  const handle = (child.stdout as unknown as { _handle: { fd: number; readStop(): number } })._handle;
  handle.readStop();
  return { child, fd: handle.fd };
}

describe('spinRead', () => {
  it('returns 0 once its time is up on an empty pipe, having waited about that long', () => {
    const { fd } = cat();
    const buffer = Buffer.alloc(64);
    const started = process.hrtime.bigint();
    expect(loadAddon('').spinRead(fd, buffer, 300)).toBe(0);
    expect(Number(process.hrtime.bigint() - started) / 1000).toBeGreaterThanOrEqual(300);
  });

  it('reads what arrives while it looks', async () => {
    const { child, fd } = cat();
    child.stdin!.write('hello');
    const read = spinReader()!;
    let got: Buffer | undefined;
    await waitFor(() => {
      got = read(fd, 1000);
      return got !== undefined;
    }, 'the bytes written to cat to come back');
    expect(got?.toString()).toBe('hello');
    expect(read(fd, 0)).toBeUndefined();
  });

  it('says -1 at end of input, and refuses arguments of the wrong type', async () => {
    const { child, fd } = cat();
    child.stdin!.end();
    await once(child, 'exit');
    const addon = loadAddon('');
    let n = 0;
    for (let i = 0; i < 100 && n === 0; i++) n = addon.spinRead(fd, Buffer.alloc(8), 1000);
    expect(n).toBe(-1);
    expect(() => addon.spinRead('x' as unknown as number, Buffer.alloc(1), 1)).toThrow(
      'spinRead(fd, buffer, micros) needs a number, a Buffer and a number',
    );
  });
});

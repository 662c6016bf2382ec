// Keeps the I/O counter working: a short run must count the server's reads of client input (with the requests
// in them), its writes to the client and, for the isolated plugin, its writes to and reads from the host.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const script = fileURLToPath(new URL('../src/io-counts.mjs', import.meta.url));

it('counts reads, requests per read and writes per call, per descriptor', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [script, '--targets', 'entropic,plugin-isolated', '--client', 'batch', '--calls', '640'],
    { maxBuffer: 4 * 2 ** 20 },
  );
  const [head, ts, isolated] = stdout.trim().split('\n');
  expect(head).toBe('64 in flight, batching client (one write per burst), 640 calls; per call:');
  // The batching client writes its window in one write: the server reads about 64 requests at a time.
  expect(ts).toMatch(
    /^entropic +[\d,]+\/s {2}fd 0: 0\.0\d+ reads \([\d.]+ lines each, \d+ % one\); fd 1: 0\.0\d+ writes$/,
  );
  const hostFds = isolated.match(/fd (\d+): [\d.]+ writes; fd (\d+): [\d.]+ reads;/);
  expect(hostFds, isolated).not.toBeNull(); // the request pipe to the host, then its answer pipe
});

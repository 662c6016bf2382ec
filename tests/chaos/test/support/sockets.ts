/**
 * Established TCP connections to a local port, read from the kernel (`/proc/net/tcp` and `tcp6`): how
 * many connections a serve process still holds, whatever it believes about them.
 */

import { readFileSync } from 'node:fs';

/** The kernel's state number of an established connection. */
const ESTABLISHED = '01';

export function establishedTo(port: number): number {
  let count = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const local = fields[1];
      if (local === undefined || fields[3] !== ESTABLISHED) continue;
      if (Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16) === port) count++;
    }
  }
  return count;
}

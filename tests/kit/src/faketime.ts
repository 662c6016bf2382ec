/**
 * A process clock moved by libfaketime, as `faketime -f OFFSET node …` moves it, in the environment
 * of the process itself: `faketime` runs its command as a child, so a signal sent to what the test
 * spawned would not reach node. The environment is the one `faketime` sets (read from it), without
 * its start-time sharing, which only `faketime`'s own run uses.
 */

import { execFileSync } from 'node:child_process';

/** The environment that runs a process with its wall clock moved by `offset` (`-10m`, `+10m`). */
export function faketimeEnv(offset: string): Record<string, string> {
  let text: string;
  try {
    text = execFileSync('faketime', ['-f', offset, 'env'], { encoding: 'utf8' });
  } catch (error) {
    throw new Error(`faketime is needed for clock-skew tests (Debian: apt-get install faketime): ${error}`);
  }
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const [name, ...rest] = line.split('=');
    if (name === 'LD_PRELOAD' || name === 'FAKETIME') env[name] = rest.join('=');
  }
  if (env.LD_PRELOAD === undefined || env.FAKETIME === undefined)
    throw new Error(`faketime -f ${offset} set no LD_PRELOAD/FAKETIME:\n${text}`);
  return env;
}

/**
 * Shared pieces of the sandbox suites: the hostile fixture plugins (test/fixtures/sandbox/hostile.c, plain API and
 * plugin context), the other host builds, a folder of files to read and write, and listening TCP ports.
 */
import { chownSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir } from '@entropic-mcp/test-kit/c-fixtures';
import { listening } from '@entropic-mcp/test-kit/sandbox-arena';
import type { Plugin } from '../../src/index.js';
import { LOADER_ROOT } from './helpers.js';

export { type Arena, HOSTILE, listening, makeArena, type Port } from '@entropic-mcp/test-kit/sandbox-arena';

/** The host built with libseccomp writing its filter (test/fixtures/Makefile). */
export const LIBSECCOMP_HOST = join(fixturesDir, 'entropic_plugin_host_libseccomp');
/** The package's host, run as the user nobody (test/fixtures/hosts/as-nobody.sh). */
export const NOBODY_HOST = join(LOADER_ROOT, 'test', 'fixtures', 'hosts', 'as-nobody.sh');

export const NOBODY = 65534;

/** A TCP port no one listens on now (the system picked it, then it was let go). */
export async function freePort(): Promise<number> {
  const held = await listening();
  await held.close();
  return held.port;
}

/** The hostile plugin's answer to `{what, ...args}`: "ok …", "refused ERRNO …", "made N ERRNO", … */
export async function attempt(p: Plugin, what: string, args: Record<string, unknown> = {}): Promise<string> {
  return (await p.execute('try', { what, ...args })).result;
}

/** What the host wrote to stderr, kept for messages and audit lines. */
export function stderrSink(): { onStderr: (text: string) => void; text(): string } {
  let text = '';
  const onStderr = (t: string): void => {
    text += t;
  };
  return { onStderr, text: () => text };
}

/** A folder the user nobody may write in (for a host that runs as nobody). */
export function openToNobody(path: string): void {
  chownSync(path, NOBODY, NOBODY);
}

/** Whether process `pid` runs (a zombie waiting for its parent does not). */
export function alive(pid: number): boolean {
  if (!existsSync(`/proc/${pid}`)) return false;
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

// Runs scripts/sanitize.sh: the plugin host and the in-process addon built with ASan and UBSan, driven
// by the plugin suites and the serve fault matrix on the fixtures. Skipped only where the compiler
// cannot build sanitized code (the script exits 77); any sanitizer report or failing case fails it.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOADER_ROOT } from './support/helpers.js';

// The script runs in a process group of its own: when the test ends early (its time limit, a stopped run), the
// whole group goes, not only bash, whose vitest runs and sanitized hosts would run on.
function sanitize(signal: AbortSignal): Promise<{ code: number | null; output: string }> {
  const child = spawn('bash', [join(LOADER_ROOT, 'scripts', 'sanitize.sh')], {
    cwd: LOADER_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const stop = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already ended
    }
  };
  signal.addEventListener('abort', stop, { once: true });
  child.once('exit', () => signal.removeEventListener('abort', stop));
  let output = '';
  child.stdout.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    output += c.toString();
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

describe('sanitizers on our C', () => {
  // 270–430 s alone; over 15 min beside the rest of npm test on a loaded 2-core machine.
  it('host and addon under ASan+UBSan pass the plugin suites with no report', {
    timeout: 40 * 60_000,
  }, async (ctx) => {
    const { code, output } = await sanitize(ctx.signal);
    if (code === 77) ctx.skip();
    expect(output, output.slice(-4000)).toContain('sanitize: clean');
    expect(code).toBe(0);
    expect(output).toContain('building entropic_plugin_host with -fsanitize=address,undefined');
    expect(output).toContain('building entropic_loader.node with -fsanitize=address,undefined');
    expect(output).toContain('canary double free reported');
    expect(output).not.toMatch(/runtime error:/);
  });
});

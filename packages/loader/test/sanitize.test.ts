// Runs scripts/sanitize.sh: the plugin host and the in-process addon built with ASan and UBSan, driven
// by the plugin suites and the serve fault matrix on the fixtures. Skipped only where the compiler
// cannot build sanitized code (the script exits 77); any sanitizer report or failing case fails it.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOADER_ROOT } from './support/serve-helpers.js';

function sanitize(): Promise<{ code: number | null; output: string }> {
  const child = spawn('bash', [join(LOADER_ROOT, 'scripts', 'sanitize.sh')], {
    cwd: LOADER_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
  it('host and addon under ASan+UBSan pass the plugin suites with no report', {
    timeout: 900_000,
  }, async (ctx) => {
    const { code, output } = await sanitize();
    if (code === 77) ctx.skip();
    expect(output, output.slice(-4000)).toContain('sanitize: clean');
    expect(code).toBe(0);
    expect(output).toContain('building entropic_plugin_host with -fsanitize=address,undefined');
    expect(output).toContain('building entropic_loader.node with -fsanitize=address,undefined');
    expect(output).toContain('canary double free reported');
    expect(output).not.toMatch(/runtime error:/);
  });
});

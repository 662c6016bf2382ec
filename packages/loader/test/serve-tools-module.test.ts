// `entropic-mcp serve --tools-module FILE`: a module's register(server) adds tools beside the plugins
// (served and called in serve-era-interop.test.ts); a module that cannot do so stops start-up with a
// message naming the file and the reason.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { examplePlugins, LOADER_ROOT, runServe } from './serve-helpers.js';

const fixture = (name: string) => join(LOADER_ROOT, 'test', 'fixtures', 'tools-module', name);
const echoPlugin = () => examplePlugins().find((p) => p.endsWith('/echo.so')) ?? 'echo.so not built';

describe('serve --tools-module', () => {
  it('refuses a module that does not exist, or exports no register(server), with exit code 2', async () => {
    const missing = await runServe(['--tools-module', fixture('absent.mjs')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`--tools-module ${fixture('absent.mjs')} could not be loaded`);
    const bare = await runServe(['--tools-module', fixture('no-register.mjs')]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('exports no register(server) function');
  });

  it('stops start-up when register(server) throws or clashes with a plugin tool', async () => {
    const failing = await runServe(['--plugin', echoPlugin(), '--tools-module', fixture('throws.mjs')]);
    expect(failing.code).toBe(1);
    expect(failing.stderr).toContain('register(server) failed: database unreachable');
    const clash = await runServe(['--plugin', echoPlugin(), '--tools-module', fixture('clash.mjs')]);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain('echo.echo');
    expect(clash.stdout).toBe('');
  });
});

// serve's sandbox settings: `sandbox:` in a config entry, the --sandbox default, and which one a plugin gets.
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { parseServeArgs } from './args.js';
import { parseServeConfig } from './parse.js';
import { resolveServePlan } from './plan.js';
import { readSandbox, readSandboxFlag } from './sandbox.js';

const TMP = tmpdir();

describe('the sandbox settings of serve', () => {
  it('reads the config keys into the loader options, relative paths from the base folder', () => {
    expect(readSandbox({ read: ['.', '/etc'], memory_mb: 64, open_files: 8 }, 'x.sandbox', TMP)).toEqual({
      read: [TMP, '/etc'],
      memoryMb: 64,
      openFiles: 8,
    });
    expect(readSandbox(null, 'x.sandbox', TMP)).toEqual({});
    expect(readSandbox(false, 'x.sandbox', TMP)).toBe(false);
  });

  it('names config keys in its refusals', () => {
    expect(() => readSandbox({ memory_mb: -1 }, 'mcp.plugins[0].sandbox', TMP)).toThrow(
      'mcp.plugins[0].sandbox.memory_mb must be a whole number from 1',
    );
    expect(() => readSandbox({ memoryMb: 5 }, 'mcp.plugins[0].sandbox', TMP)).toThrow(
      'mcp.plugins[0].sandbox has an unknown key "memoryMb"; did you mean `memory_mb`?',
    );
    expect(() => readSandbox([], 's', TMP)).toThrow('s must be a mapping of sandbox settings');
  });

  it('reads --sandbox as an inline YAML mapping', () => {
    expect(readSandboxFlag('{read: [/tmp], connect: [5432], required: false}', '/')).toEqual({
      read: ['/tmp'],
      connect: [5432],
      required: false,
    });
    expect(() => readSandboxFlag('{read: [', '/')).toThrow('--sandbox expects a YAML mapping');
    expect(() => parseServeArgs(['--sandbox', '{exec: yes}'])).toThrow(
      '--sandbox.exec must be true or false',
    );
  });

  it('gives each plugin its entry sandbox, else the --sandbox default; false opts out; audit covers all', () => {
    const file = parseServeConfig(
      `mcp:\n  plugins:\n    - path: /a.so\n      sandbox: {read: [/tmp]}\n    - /b.so\n    - path: /c.so\n      sandbox: false\n`,
      '/etc/entropic.yaml',
    );
    const sandboxes = (argv: string[]) =>
      resolveServePlan(parseServeArgs(argv), file, '/').plugins.map((p) => p.sandbox);
    expect(sandboxes([])).toEqual([{ read: ['/tmp'] }, undefined, undefined]);
    expect(sandboxes(['--sandbox', '{memory_mb: 9}'])).toEqual([
      { read: ['/tmp'] },
      { memoryMb: 9 },
      undefined,
    ]);
    expect(sandboxes(['--sandbox-audit'])).toEqual([
      { read: ['/tmp'], audit: true },
      { audit: true },
      undefined,
    ]);
    expect(() => sandboxes(['--isolation', 'none'])).toThrow(
      '/a.so: a sandbox needs isolation process (the in-process mode cannot be sandboxed)',
    );
  });
});

// Runs the built `entropic-abi` CLI: version, include-dir, generate, model, lock, check.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { abiHeadersRoot, fingerprint, generateAll, parseLock, readAbiModel } from '../src/index.js';
import { tempDir } from './support/cc.js';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.js');
const tmp = tempDir('entropic-cli');
afterAll(tmp.cleanup);

function abi(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('entropic-abi (built CLI)', () => {
  it('is built with a node shebang', () => {
    expect(existsSync(cli), 'run the package build first').toBe(true);
    expect(readFileSync(cli, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it.each([
    ['generate', '--out DIR'],
    ['lock', '--file PATH'],
    ['model', '--definitions DIR'],
    ['check', '--no-binary'],
    ['record-release', '--baseline'],
    ['abi-dump', '--reference FILE'],
    ['verify-plugin', '--reference FILE'],
    ['include-dir', 'entropic-abi-headers --include-dir'],
  ])('%s --help explains its options', (command, option) => {
    const r = abi(command, '--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`usage: entropic-abi ${command}`);
    expect(r.stdout).toContain(option);
    expect(r.stdout).toMatch(/Exit|Prints/);
  });

  it('--version prints the package version', () => {
    const manifest = JSON.parse(readFileSync(join(dirname(cli), '..', 'package.json'), 'utf8'));
    for (const flag of ['--version', '-v']) {
      const r = abi(flag);
      expect(r.status, flag).toBe(0);
      expect(r.stdout.trim(), flag).toBe(manifest.version);
    }
  });

  it('include-dir prints the include folder that holds the plugin header', () => {
    const r = abi('include-dir');
    expect(r.status).toBe(0);
    const dir = r.stdout.trim();
    expect(dir).toBe(join(abiHeadersRoot(), 'include'));
    expect(existsSync(join(dir, 'entropic', 'interfaces', 'i_mcp_server.h'))).toBe(true);
  });

  it('generate --out writes the same files as the in-memory generation', () => {
    const out = join(tmp.dir, 'gen');
    const r = abi('generate', '--out', out, '--quiet');
    expect(r.status, r.stderr).toBe(0);
    for (const [path, text] of Object.entries(generateAll({ write: false }))) {
      expect(readFileSync(join(out, path), 'utf8'), path).toBe(text);
    }
  });

  it('model prints the model as JSON', () => {
    const r = abi('model');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(readAbiModel());
  });

  it('lock --file writes a lock entry for the current version', () => {
    const file = join(tmp.dir, 'abi.lock.json');
    expect(abi('lock', '--file', file).stdout).toMatch(/^wrote /);
    expect(parseLock(readFileSync(file, 'utf8')).versions['1']?.fingerprint).toBe(
      fingerprint(readAbiModel()),
    );
    expect(abi('lock', '--file', file).stdout).toMatch(/^unchanged /);
  });

  it('loads the TypeScript compiler (ts-morph) only for commands that read definitions', () => {
    const probe = join(tmp.dir, 'probe.cjs');
    writeFileSync(
      probe,
      "process.on('exit', () => process.stderr.write('\\nts-morph loaded: ' + Object.keys(require.cache).some((k) => k.includes('/ts-morph/dist/')) + '\\n'));\n",
    );
    const loaded = (...args: string[]) => {
      const r = spawnSync(process.execPath, ['--require', probe, cli, ...args], { encoding: 'utf8' });
      return /ts-morph loaded: (true|false)/.exec(r.stderr)?.[1];
    };
    for (const args of [['--help'], ['generate', '--help'], ['include-dir'], ['check', '--bogus']])
      expect(loaded(...args), args.join(' ')).toBe('false');
    expect(loaded('model')).toBe('true');
  });

  it('--help lists the commands and exits 0', () => {
    const r = abi('--help');
    expect(r.status).toBe(0);
    for (const name of ['generate', 'lock', 'include-dir', 'model']) expect(r.stdout).toContain(name);
  });

  it.each([
    [['frobnicate'], "entropic-abi: unknown command 'frobnicate' (known: ", 'run `entropic-abi --help`'],
    [
      ['generate', '--nope'],
      "entropic-abi generate: Unknown option '--nope'",
      'run `entropic-abi generate --help`',
    ],
    [
      ['include-dir', 'extra'],
      "entropic-abi include-dir: unexpected argument 'extra'",
      'run `entropic-abi include-dir --help`',
    ],
    [['check', '--bogus'], "entropic-abi check: Unknown option '--bogus'", 'run `entropic-abi check --help`'],
    [
      ['check', '--base', 'HEAD', '--no-base'],
      'entropic-abi check: --base and --no-base exclude each other',
      'run `entropic-abi check --help`',
    ],
    [
      ['verify-plugin'],
      'entropic-abi verify-plugin: give exactly one plugin library',
      'run `entropic-abi verify-plugin --help`',
    ],
  ])('a usage error (%j) is one line and a hint, not the usage text', (args, first, hint) => {
    const r = abi(...args);
    expect(r.status).toBe(2);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines, r.stderr).toHaveLength(2);
    expect(lines[0]).toContain(first);
    expect(lines[1]).toContain(hint);
    expect(r.stderr).not.toContain('usage:');
  });

  it('no command prints the help on stderr and exits 2', () => {
    const r = abi();
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('usage: entropic-abi');
  });

  it('a definition error exits 1 with the located message', () => {
    const r = abi('model', '--definitions', join(tmp.dir, 'missing'));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('entropic-abi model:');
  });
});

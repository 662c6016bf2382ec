// One end-to-end run of the built `entropic-abi check` in a scenario repository.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Scenario } from './support/check-scenario.js';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');

function which(cmd: string): string {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} not found`);
  return r.stdout.trim();
}

let template: string;
let bin: string;
const made: Scenario[] = [];
beforeAll(() => {
  template = Scenario.template();
  // A PATH with git and tar but without libabigail's tools.
  bin = mkdtempSync(join(tmpdir(), 'no-abigail-bin-'));
  for (const cmd of ['git', 'tar']) symlinkSync(which(cmd), join(bin, cmd));
});
afterAll(() => {
  for (const s of made) s.remove();
  Scenario.fromDir(template).remove();
  rmSync(bin, { recursive: true, force: true });
});

/** The environment of this test run without CI (CI changes the verdict where nothing is compared). */
const { CI: _ci, ...notCi } = process.env;

function cli(cwd: string, args: string[], env: NodeJS.ProcessEnv = notCi) {
  const r = spawnSync(process.execPath, [CLI, 'check', ...args], { cwd, env, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('entropic-abi check (the built command)', () => {
  // Four built checks and three regenerations in a row: over two minutes on a loaded 2-core machine.
  it('exits 1 naming the rule and the change, 0 once versioned, 2 for an unknown base', {
    timeout: 5 * 60_000,
  }, () => {
    const s = Scenario.from(template);
    made.push(s);
    s.edit('src/abi/mcp_server.ts', 'args_json: c_const_char_ptr', 'args_json: c_char_ptr')
      .regenerate()
      .commit('break');
    const failed = cli(s.dir, []);
    expect(failed.status).toBe(1);
    expect(failed.out).toContain('✖ [version-not-bumped]');
    expect(failed.out).toContain('function entropic_mcp_server_execute changed');
    expect(failed.out).toContain('entropic-abi check: FAILED');

    // The branch refreshed the version 1 lock entry; versioning properly means restoring it first.
    s.bumpApiVersion(2).regenerate().changeset('v2', 'major').commit('version it');
    const history = cli(s.dir, []);
    expect(history.status).toBe(1);
    expect(history.out).toContain('✖ [lock-history]');
    expect(history.out).toMatch(
      /restore it \(`git checkout [0-9a-f]{10} -- packages\/abi-headers\/abi\.lock\.json`\)/,
    );
    spawnSync('git', ['checkout', 'main', '--', 'packages/abi-headers/abi.lock.json'], { cwd: s.dir });
    s.regenerate().commit('lock restored and refreshed');
    const passed = cli(s.dir, []);
    expect(passed.out).toContain('entropic-abi check: OK');
    expect(passed.status).toBe(0);

    const usage = cli(s.dir, ['--base', 'no-such-ref']);
    expect(usage.status).toBe(2);
    expect(usage.out).toContain('--base no-such-ref does not name a commit');
  });

  it('check and lock say plainly that the binary layer was skipped when abigail-tools is missing', () => {
    const s = Scenario.from(template);
    made.push(s);
    const r = cli(s.dir, [], { ...notCi, PATH: bin });
    expect(r.out).toContain('binary layer: SKIPPED — abigail-tools is not installed');
    expect(r.status).toBe(0);
    // lock writes the lock and says, naming the command, that the binary reference was left alone.
    const lock = spawnSync(process.execPath, [CLI, 'lock'], {
      cwd: s.dir,
      env: { ...process.env, PATH: bin },
      encoding: 'utf8',
    });
    expect(lock.status).toBe(0);
    expect(lock.stdout).toContain(`unchanged ${s.file('abi.lock.json')}`);
    expect(lock.stderr).toContain('binary reference NOT refreshed: abigail-tools is not installed');
    expect(lock.stderr).toContain('pnpm exec entropic-abi abi-dump --update');
  });
});

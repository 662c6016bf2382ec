// Gate rules on the committed files: generated files fresh, lock current, intact and append-only.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractPaths } from '../src/check/git.js';
import { UsageError } from '../src/check/run.js';
import { fingerprintOf } from '../src/lock/fingerprint.js';
import type { AbiLock } from '../src/lock/lock-file.js';
import { messages, rules, type Scenario, scenariosForThisFile } from './support/check-scenario.js';

const scenario = scenariosForThisFile();

const HEADER = 'include/entropic/interfaces/i_mcp_server.h';
const MCP = 'src/abi/mcp_server.ts';

function editLock(s: Scenario, fn: (lock: AbiLock) => void): void {
  const path = s.file('abi.lock.json');
  const lock = JSON.parse(readFileSync(path, 'utf8')) as AbiLock;
  fn(lock);
  writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
}

describe('rule: committed generated files equal a fresh generation', () => {
  it('names the hand-edited header and its first differing line', async () => {
    const s = scenario().edit(HEADER, 'const char* tool_name,', 'char* tool_name,').commit('hand edit');
    const r = await s.check({ binary: false });
    expect(rules(r)).toEqual(['generated-files']);
    const m = messages(r);
    expect(m).toMatch(
      /packages\/abi-headers\/include\/entropic\/interfaces\/i_mcp_server\.h differs from a fresh generation, first at line \d+:/,
    );
    expect(m).toContain('committed:                                                   char* tool_name,');
    expect(m).toContain(
      'generated:                                                   const char* tool_name,',
    );
    expect(m).toContain('pnpm exec entropic-abi generate');
  });

  it('names stale loader tables and a leftover header; regenerating clears both (load-bearing)', async () => {
    const s = scenario();
    s.edit(MCP, "Creates the plugin's server instance.", 'Creates a server.');
    s.regenerate({ headers: false });
    s.write('include/entropic/old.h', '#pragma once\n');
    const r = await s.check({ base: null, binary: false });
    expect(rules(r)).toEqual(['generated-files', 'generated-files']);
    expect(messages(r)).toContain('packages/abi-headers/include/entropic/interfaces/i_mcp_server.h differs');
    expect(messages(r)).toContain(
      'packages/abi-headers/include/entropic/old.h is not produced by any definition',
    );

    s.regenerate();
    expect(rules(await s.check({ base: null, binary: false }))).toEqual(['generated-files']);
  });
});

describe('rule: the lock is current', () => {
  it('fails when the lock has no entry for the current API version', async () => {
    const s = scenario()
      .edit(MCP, 'args_json: c_const_char_ptr', 'args_json: c_char_ptr')
      .bumpApiVersion(2)
      .regenerate({ lock: false })
      .changeset('v2', 'major')
      .commit('v2, lock forgotten');
    const r = await s.check();
    expect(rules(r)).toEqual(['lock-stale']);
    expect(messages(r)).toContain('abi.lock.json has no entry for API version 2');
    expect(messages(r)).toContain('pnpm exec entropic-abi lock');
  });

  it("fails when the entry's fingerprint is not the definitions', naming the difference", async () => {
    const s = scenario()
      .edit(
        'src/abi/error.ts',
        'ENTROPIC_ERROR_SPECULATIVE_INCOMPATIBLE_CONFIG = 54,',
        'ENTROPIC_ERROR_SPECULATIVE_INCOMPATIBLE_CONFIG = 54,\n  /** New. */\n  ENTROPIC_ERROR_NEWER = 55,',
      )
      .regenerate({ lock: false })
      .changeset('newer', 'minor')
      .commit('append, lock forgotten');
    const r = await s.check();
    expect(rules(r)).toEqual(['lock-stale']);
    expect(messages(r)).toMatch(
      /abi\.lock\.json is stale: its API version 1 fingerprint is sha256:[0-9a-f]{64}/,
    );
    expect(messages(r)).toContain('enum entropic_error_t: appended ENTROPIC_ERROR_NEWER = 55');

    s.regenerate().commit('lock refreshed');
    expect((await s.check()).findings).toEqual([]);
  });

  it('fails when an entry was edited by hand (its fingerprint no longer hashes its subset)', async () => {
    const s = scenario();
    editLock(s, (lock) => {
      lock.versions['1']!.locked.defines.push({ name: 'ENTROPIC_FAKE', value: 1 });
    });
    const r = await s.check({ base: null, binary: false });
    expect(rules(r)).toEqual(['lock-integrity']);
    expect(messages(r)).toContain('the entry for API version 1 records fingerprint');
    expect(messages(r)).toContain('was edited by hand');
  });
});

describe("rule: earlier versions' lock entries never change", () => {
  const toV2 = (s: Scenario) =>
    s
      .edit(MCP, 'args_json: c_const_char_ptr', 'args_json: c_char_ptr')
      .bumpApiVersion(2)
      .regenerate()
      .changeset('v2', 'major');

  it('fails when the version 1 entry was rewritten (even consistently), naming what changed', async () => {
    const s = toV2(scenario());
    editLock(s, (lock) => {
      const v1 = lock.versions['1']!;
      const exec = v1.locked.functions.find((f) => f.name === 'entropic_mcp_server_execute')!;
      exec.params[1] = { kind: 'builtin', spelling: 'void*' };
      v1.fingerprint = fingerprintOf(v1.locked);
    });
    s.commit('v2 and a rewritten v1');
    const r = await s.check();
    expect(rules(r)).toEqual(['lock-history']);
    expect(messages(r)).toContain('the entry for earlier API version 1 was altered');
    expect(messages(r)).toContain('params › #2 changed from const char* to void*');
  });

  it('fails when the version 1 entry was removed', async () => {
    const s = toV2(scenario());
    editLock(s, (lock) => {
      delete lock.versions['1'];
    });
    s.commit('v2 without v1');
    const r = await s.check();
    expect(rules(r)).toEqual(['lock-history']);
    expect(messages(r)).toContain('the entry for earlier API version 1 was removed');
  });

  it('passes when version 1 is kept as it was (load-bearing)', async () => {
    const s = toV2(scenario()).commit('v2');
    const lock = JSON.parse(s.read('abi.lock.json')) as AbiLock;
    expect(Object.keys(lock.versions)).toEqual(['1', '2']);
    expect((await s.check()).findings).toEqual([]);
  });
});

describe('choosing the base', () => {
  it('uses no base on a clean main, HEAD with uncommitted changes, and an explicit --base', async () => {
    const s = scenario().edit(MCP, 'args_json: c_const_char_ptr', 'args_json: c_char_ptr').regenerate();
    s.commit('breaking on main');
    const git = (await import('node:child_process')).execFileSync;
    git('git', ['checkout', '-q', '-B', 'main'], { cwd: s.dir });
    const onMain = await s.check();
    expect(onMain.notes.join('\n')).toContain('base: none');
    expect(onMain.findings).toEqual([]);
    s.edit(MCP, 'tool_name: c_const_char_ptr', 'tool_name: c_char_ptr');
    const uncommitted = await s.check();
    expect(uncommitted.notes.join('\n')).toMatch(/base: HEAD \([0-9a-f]{10}; uncommitted changes\)/);
    expect(rules(uncommitted)).toContain('version-not-bumped');
    const explicit = await s.check({ base: 'HEAD~1' });
    expect(explicit.notes.join('\n')).toContain('base: HEAD~1');
    expect(rules(explicit)).toContain('version-not-bumped');
  });

  it('rejects a base that names no commit', async () => {
    await expect(scenario().check({ base: 'no-such-ref' })).rejects.toThrow(UsageError);
  });

  it('takes from the base the files it has, in their layout, and skips those it lacks', () => {
    const s = scenario();
    const dest = join(s.dir, '.base');
    const pkg = 'packages/abi-headers';
    extractPaths(
      s.dir,
      'main',
      [`${pkg}/abi.lock.json`, `${pkg}/no-such`, `${pkg}/src/abi`, 'abi.lock.json'],
      dest,
    );
    expect(readFileSync(join(dest, pkg, 'abi.lock.json'), 'utf8')).toBe(s.read('abi.lock.json'));
    expect(readdirSync(join(dest, pkg, 'src/abi')).sort()).toEqual(readdirSync(s.file('src/abi')).sort());
    expect(readdirSync(join(dest, pkg)).sort()).toEqual(['abi.lock.json', 'src']);
    expect(readdirSync(dest)).toEqual(['packages']);
    const none = join(s.dir, '.none');
    extractPaths(s.dir, 'main', [`${pkg}/no-such`], none);
    expect(existsSync(none) && readdirSync(none)).toEqual([]);
  });
});

// Release records (abi/releases/<version>/): what `entropic-abi record-release` writes and refuses, and the
// gate's rules on them: each readable and never edited, the last one at the package's version, and the
// comparison with them (once when the base is the same ABI).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Scenario, scenariosForThisFile } from './support/check-scenario.js';
import { entropicAbi, expectVerdict, followSteps } from './support/mutations.js';

const scenario = scenariosForThisFile();
const RECORDS = 'abi/releases';
const ERR = 'src/abi/error.ts';

async function record(s: Scenario, ...args: string[]) {
  return entropicAbi(s, ['record-release', ...args]);
}

/** A scenario whose main holds the baseline record of 0.1.0 and the release record of 0.2.0. */
async function released(): Promise<Scenario> {
  const s = scenario();
  s.git('checkout', '-q', 'main');
  expect((await record(s, '--baseline')).code).toBe(0);
  s.setVersion('0.2.0');
  expect((await record(s)).code).toBe(0);
  s.commit('release 0.2.0');
  s.git('checkout', '-q', '-b', 'after-release');
  return s;
}

describe('entropic-abi record-release', () => {
  it('copies the lock and the reference beside a release.json, once', async () => {
    const s = scenario();
    const first = await record(s);
    expect(first.code, first.text).toBe(0);
    expect(first.text).toMatch(
      /^recorded @entropic-mcp\/abi-headers 0\.1\.0 \(API version 1, sha256:[0-9a-f]{64}\)/,
    );
    const dir = s.file(`${RECORDS}/0.1.0`);
    expect(readFileSync(join(dir, 'abi.lock.json'), 'utf8')).toBe(s.read('abi.lock.json'));
    expect(readFileSync(join(dir, 'entropic-mcp-plugin.abi'), 'utf8')).toBe(
      s.read('abi/entropic-mcp-plugin.abi'),
    );
    const manifest = JSON.parse(readFileSync(join(dir, 'release.json'), 'utf8'));
    expect(manifest).toMatchObject({
      package: '@entropic-mcp/abi-headers',
      version: '0.1.0',
      kind: 'release',
      apiVersion: 1,
    });
    const again = await record(s);
    expect(again.code).toBe(0);
    expect(again.text).toMatch(/^already recorded /);
  });

  it('leaves a baseline record as it is when the same version is recorded again without --baseline', async () => {
    const s = scenario();
    expect((await record(s, '--baseline')).code).toBe(0);
    const manifest = s.read(`${RECORDS}/0.1.0/release.json`);
    expect(JSON.parse(manifest).kind).toBe('baseline');
    const again = await record(s);
    expect(again.code, again.text).toBe(0);
    expect(again.text).toMatch(/^already recorded /);
    expect(s.read(`${RECORDS}/0.1.0/release.json`)).toBe(manifest);
  });

  it('refuses a different record of the same version, a lower version, and a stale lock', async () => {
    const s = scenario();
    expect((await record(s)).code).toBe(0);
    s.edit(
      ERR,
      'ENTROPIC_ERROR_SPECULATIVE_INCOMPATIBLE_CONFIG = 54,',
      'ENTROPIC_ERROR_SPECULATIVE_INCOMPATIBLE_CONFIG = 54,\n  ENTROPIC_ERROR_X = 55,',
    );
    const stale = await record(s);
    expect(stale.code).toBe(1);
    expect(stale.text).toContain('does not lock the definitions');
    await followSteps(s, 'additive', ['command']);
    const differs = await record(s);
    expect(differs.code).toBe(1);
    expect(differs.text).toContain(
      'already records @entropic-mcp/abi-headers 0.1.0 and differs in release.json, abi.lock.json, entropic-mcp-plugin.abi',
    );
    s.setVersion('0.0.9');
    const lower = await record(s);
    expect(lower.code).toBe(1);
    expect(lower.text).toContain('0.1.0 is already recorded');
  });
});

describe('the gate and the records', () => {
  it('compares a branch with the last record once when its base has the same ABI', async () => {
    const s = await released();
    s.edit('src/abi/mcp_server.ts', "Creates the plugin's server instance.", 'Creates one server.')
      .regenerate()
      .commit('reword');
    const [run] = await expectVerdict(s, { rules: [] }, [[]]);
    expect(run!.text).toContain(
      'release: release @entropic-mcp/abi-headers@0.2.0 (recorded in packages/abi-headers/abi/releases/0.2.0), the same ABI as the base; compared once',
    );
    expect(run!.text).toContain('release 0.2.0 checked against release 0.1.0 before it');
  });

  it('--release X.Y.Z compares with that record; an unknown version is a usage error', async () => {
    const s = await released();
    const run = await entropicAbi(s, ['check', '--no-base', '--release', '0.1.0', '--no-binary']);
    expect(run.code, run.text).toBe(0);
    expect(run.text).toContain(
      'release: @entropic-mcp/abi-headers 0.1.0, the baseline recorded before the first release',
    );
    await expect(entropicAbi(s, ['check', '--release', '9.9.9'])).rejects.toThrow(
      '--release 9.9.9: no release record',
    );
  });

  it('a record edited or removed since the base fails', async () => {
    const s = await released();
    const lock = s.file(`${RECORDS}/0.1.0/abi.lock.json`);
    writeFileSync(lock, readFileSync(lock, 'utf8').replace('"value": 11', '"value": 12'));
    rmSync(s.file(`${RECORDS}/0.2.0/entropic-mcp-plugin.abi`));
    s.commit('records edited');
    await expectVerdict(
      s,
      {
        rules: ['release-records', 'release-records', 'release-records', 'release-records'],
        mentions: [
          'packages/abi-headers/abi/releases/0.1.0/abi.lock.json: the entry for API version 1 does not hash to its fingerprint',
          'packages/abi-headers/abi/releases/0.2.0 has no entropic-mcp-plugin.abi',
          'The release record packages/abi-headers/abi/releases/0.1.0 changed since',
          'abi.lock.json altered',
          'entropic-mcp-plugin.abi removed',
        ],
      },
      [['--base', 'main']],
    );
  });

  it('a package version below the last record fails', async () => {
    const s = await released();
    s.setVersion('0.1.5').commit('version lowered');
    await expectVerdict(
      s,
      { rules: ['release-records'], mentions: ['below the last release record 0.2.0'] },
      [['--base', 'main']],
    );
  });
});

// The gate as CI runs it: an origin whose main gets one commit, cloned afresh (no tags, no other branch),
// the gate run there as `npm test` runs it. The clone has no base to fork from, so the last release record
// is what the gate compares with; each case asserts the verdict and the rules.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { abigailAvailable } from '../src/abigail/tools.js';
import type { Scenario } from './support/check-scenario.js';
import { ciClonesForThisFile, type GateRun, runCheckIn } from './support/ci-clone.js';
import { entropicAbi, followSteps, printedRules } from './support/mutations.js';

const { ci } = ciClonesForThisFile();

const ERR = 'src/abi/error.ts';
const MCP = 'src/abi/mcp_server.ts';
/** The reproduction: an enumerator plugins already use, renumbered. */
const renumber = (s: Scenario) =>
  s.edit(ERR, 'ENTROPIC_ERROR_TIER_MODEL_TOO_LARGE = 53', 'ENTROPIC_ERROR_TIER_MODEL_TOO_LARGE = 57');
const append = (s: Scenario) =>
  s.edit(
    ERR,
    'ENTROPIC_ERROR_SPECULATIVE_INCOMPATIBLE_CONFIG = 54,',
    'ENTROPIC_ERROR_SPECULATIVE_INCOMPATIBLE_CONFIG = 54,\n  /** Added later. */\n  ENTROPIC_ERROR_ADDED_LATER = 55,',
  );
/** A renumbering is a harmful change for abidiff too. */
const BREAK = abigailAvailable() ? ['version-not-bumped', 'binary-not-bumped'] : ['version-not-bumped'];
const RELEASED =
  'release: release @entropic-mcp/abi-headers@0.2.0 (recorded in packages/abi-headers/abi/releases/0.2.0)';

function expectGate(run: GateRun, rules: string[]): void {
  expect(printedRules(run.text), run.text).toEqual(rules);
  expect(run.code, run.text).toBe(rules.length === 0 ? 0 : 1);
  expect(run.text).toContain('base: none');
}

describe('CI on main after a release: the last commit is compared with the recorded release', () => {
  it('a breaking change without a new API version fails', async () => {
    const run = await ci('released', async (o) => {
      renumber(o);
      await followSteps(o, 'additive', ['command']);
      o.commit('error: renumber TIER_MODEL_TOO_LARGE');
    });
    expectGate(run, BREAK);
    expect(run.text).toContain(RELEASED);
    expect(run.text).toContain('ENTROPIC_ERROR_TIER_MODEL_TOO_LARGE › value changed from 53 to 57');
  });

  it('an additive change without a changeset fails', async () => {
    const run = await ci('released', async (o) => {
      append(o);
      await followSteps(o, 'additive', ['command']);
      o.commit('error: append ADDED_LATER');
    });
    expectGate(run, ['release-not-minor']);
    expect(run.text).toContain('appended ENTROPIC_ERROR_ADDED_LATER = 55 [additive]');
    expect(run.text).toContain('no pending changeset names @entropic-mcp/abi-headers');
  });

  it('a breaking change covered only by a minor changeset fails', async () => {
    const run = await ci('released', async (o) => {
      renumber(o);
      await followSteps(o, 'additive');
      o.commit('error: renumber, with a minor changeset');
    });
    expectGate(run, BREAK);
  });

  it('an additive change with a minor changeset passes', async () => {
    const run = await ci('released', async (o) => {
      append(o);
      await followSteps(o, 'additive');
      o.commit('error: append ADDED_LATER, minor');
    });
    expectGate(run, []);
    expect(run.text).toContain(RELEASED);
  });

  it('a breaking change with the API version raised and a major changeset passes', async () => {
    const run = await ci('released', async (o) => {
      renumber(o);
      await followSteps(o, 'breaking');
      o.commit('error: renumber in API version 2, major');
    });
    expectGate(run, []);
    expect(run.text).toContain('API version 2');
  });

  it('a comment-only change passes', async () => {
    const run = await ci('released', async (o) => {
      o.edit(MCP, "Creates the plugin's server instance.", 'Creates one server instance of the plugin.');
      await followSteps(o, 'additive', ['command']);
      o.commit('docs: reword create_server');
    });
    expectGate(run, []);
  });
});

describe('CI on a release commit: the release is checked against the release before it', () => {
  /** On the baseline: an appended enumerator with a changeset of `bump`, then the release of `version`. */
  const releaseCommit =
    (bump: 'minor' | 'patch', version: string, recorded = true) =>
    async (o: Scenario) => {
      append(o);
      await followSteps(o, 'additive', ['command']);
      o.changeset('abi-append', bump).commit('error: append ADDED_LATER');
      // What a release does: the version from the changesets, the changesets consumed, the record written.
      o.setVersion(version);
      rmSync(join(o.dir, '.changeset', 'abi-append.md'));
      if (recorded) expect((await entropicAbi(o, ['record-release'])).code).toBe(0);
      o.commit(`release: abi-headers ${version}`);
    };

  it('versions raised, changesets consumed, record written: passes, naming both releases', async () => {
    const run = await ci('baseline', releaseCommit('minor', '0.2.0'));
    expectGate(run, []);
    expect(run.text).toContain(RELEASED);
    expect(run.text).toContain('release 0.2.0 checked against release 0.1.0 before it');
  });

  it('a release that is only a patch for an additive change fails', async () => {
    const run = await ci('baseline', releaseCommit('patch', '0.1.1'));
    expectGate(run, ['release-not-minor']);
    expect(run.text).toContain('Release record packages/abi-headers/abi/releases/0.1.1:');
    expect(run.text).toContain('package version 0.1.0 → 0.1.1');
  });

  it('a release without its record fails, naming the command', async () => {
    const run = await ci('baseline', releaseCommit('minor', '0.2.0', false));
    expectGate(run, ['release-not-recorded']);
    expect(run.text).toContain('pnpm exec entropic-abi record-release');
  });
});

describe('CI before the first release: the baseline record is the release', () => {
  it('a breaking change without a new API version fails, naming the baseline', async () => {
    const run = await ci('baseline', async (o) => {
      renumber(o);
      await followSteps(o, 'additive', ['command']);
      o.commit('error: renumber TIER_MODEL_TOO_LARGE');
    });
    expectGate(run, BREAK);
    expect(run.text).toContain(
      'release: @entropic-mcp/abi-headers 0.1.0, the baseline recorded before the first release (never published',
    );
  });
});

describe('CI with nothing to compare with fails closed', () => {
  // The gate through pnpm, then four built checks: over two minutes on a loaded 2-core machine.
  it('no base, no record, no tag: fails in CI saying how to give it one; outside CI it is a note', {
    timeout: 5 * 60_000,
  }, async () => {
    const run = await ci('unrecorded', async (o) => {
      o.edit(MCP, "Creates the plugin's server instance.", 'Creates one server instance of the plugin.');
      await followSteps(o, 'additive', ['command']);
      o.commit('docs: reword create_server');
    });
    expectGate(run, ['nothing-to-compare']);
    expect(run.text).toContain('pnpm exec entropic-abi record-release');
    expect(run.text).toContain('git fetch --tags');

    const path = process.env.PATH;
    const local = runCheckIn(run.clone, ['--no-binary'], { PATH: path });
    expect(printedRules(local.text), local.text).toEqual([]);
    expect(local.code).toBe(0);
    expect(local.text).toContain(
      'only the self-consistency rules ran (no base, no release); in CI (--ci) this fails',
    );
    for (const CI of ['true', '1']) {
      const service = runCheckIn(run.clone, ['--no-binary'], { PATH: path, CI });
      expect(printedRules(service.text), `CI=${CI}\n${service.text}`).toEqual(['nothing-to-compare']);
    }
    expect(runCheckIn(run.clone, ['--no-binary'], { PATH: path, CI: 'false' }).code).toBe(0);
  });
});

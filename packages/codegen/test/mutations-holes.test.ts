// Mutation cases for the holes the gate used to miss: enumerator values C cannot hold, a binary
// reference that churned on every dump, header paths that could move, and a main that was only
// compared with itself. Same harness as mutations-contract.test.ts (support/mutations.ts).
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildHeadersAbi } from '../src/abigail/build.js';
import { abigailAvailable } from '../src/abigail/tools.js';
import { AbiDefinitionError } from '../src/model/errors.js';
import { type Scenario, scenariosForThisFile } from './support/check-scenario.js';
import { entropicAbi, expectVerdict, followSteps } from './support/mutations.js';

const scenario = scenariosForThisFile();
const tmp = mkdtempSync(join(tmpdir(), 'abi-mutations-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const MCP = 'src/abi/mcp_server.ts';
const ERR = 'src/abi/error.ts';
const LAST = 'ENTROPIC_ERROR_SPECULATIVE_INCOMPATIBLE_CONFIG = 54,';

describe('hole 1: enumerator values must be C ints', () => {
  for (const [value, why] of [
    ['55.5', 'is not an integer'],
    ['4294967296', 'is outside C int (-2147483648..2147483647)'],
  ] as const) {
    it(`refuses X = ${value}, naming the enumerator, in generate and in check`, async () => {
      const s = scenario().edit(ERR, LAST, `${LAST}\n  ENTROPIC_ERROR_X = ${value},`);
      const named = `enumerator 'ENTROPIC_ERROR_X' of entropic_error_t = ${value} ${why}`;
      await expect(entropicAbi(s, ['generate'])).rejects.toThrow(AbiDefinitionError);
      await expect(entropicAbi(s, ['lock'])).rejects.toThrow(named);
      s.changeset('abi-minor', 'minor').commit(`append X = ${value}`);
      await expectVerdict(s, { rules: ['definitions'], mentions: [named, 'error.ts:'] });
    });
  }
});

describe.skipIf(!abigailAvailable())('hole 3: the binary reference is the same bytes on every run', () => {
  it('two dumps of header copies at different paths are identical and name no temporary path', () => {
    const a = join(tmp, 'a', 'include');
    const b = join(tmp, 'elsewhere', 'b', 'include');
    const s = scenario();
    cpSync(s.file('include'), a, { recursive: true });
    cpSync(s.file('include'), b, { recursive: true });
    const first = buildHeadersAbi(a).abi;
    const second = buildHeadersAbi(b).abi;
    expect(second).toBe(first);
    expect(first).toContain("path='stub.c'");
    expect(first).not.toMatch(/entropic-abi-stub-|\/tmp\//);
    expect(readFileSync(s.file('abi/entropic-mcp-plugin.abi'), 'utf8')).toBe(first);
  });

  it('abi-dump --update and lock on a clean checkout leave it untouched', async () => {
    const s = scenario();
    expect((await entropicAbi(s, ['abi-dump', '--update'])).text).toMatch(/^unchanged /);
    const lock = await entropicAbi(s, ['lock']);
    expect(lock.text).toContain('(binary reference, from include/)');
    expect(s.git('status', '--porcelain')).toBe('');
  });
});

const CTX = 'src/abi/mcp_context.ts';

describe('hole 4: installed header paths and includes are locked', () => {
  const move = async (s: Scenario) => {
    s.edit(ERR, "path: 'entropic/types/error.h'", "path: 'entropic/error.h'");
    s.edit(MCP, "'entropic/types/error.h']", "'entropic/error.h']");
    s.edit(CTX, "'entropic/types/error.h',", "'entropic/error.h',");
    s.git('rm', '-q', 'packages/abi-headers/include/entropic/types/error.h');
  };

  it('moving entropic/types/error.h, regenerated and relocked, is breaking', async () => {
    const s = scenario();
    await move(s);
    await followSteps(s, 'additive');
    s.commit('move error.h');
    expect(s.read('include/entropic/error.h')).toContain('entropic_error_t');
    await expectVerdict(s, {
      rules: ['version-not-bumped'],
      mentions: [
        'header <entropic/types/error.h> removed (its declarations moved to <entropic/error.h>)',
        'header <entropic/interfaces/i_mcp_server.h> no longer includes <entropic/types/error.h>',
      ],
    });
  });

  it('the same move passes as a new API version made with the documented steps', async () => {
    const s = scenario();
    await move(s);
    await followSteps(s, 'breaking');
    s.commit('move error.h in API version 2');
    await expectVerdict(s, { rules: [] });
  });
});

describe('comparing with the last released ABI', () => {
  const TAG = '@entropic-mcp/abi-headers@0.1.0';
  /** A harmful change committed straight on main, relocked and with a changeset: it looks finished. */
  const breakOnMain = async (s: Scenario) => {
    s.git('checkout', '-q', 'main');
    s.edit(MCP, 'args_json: c_const_char_ptr', 'args_json: c_int');
    await followSteps(s, 'additive');
    s.commit('execute takes an int');
  };

  it('catches on main, through the release tag when no release is recorded, a break no base shows', async () => {
    const s = scenario();
    s.git('tag', TAG, 'main');
    const tgz = join(tmp, 'abi-headers-0.1.0.tgz');
    s.git('archive', '--format=tar.gz', '--prefix=package/', '-o', tgz, `${TAG}:packages/abi-headers`);
    await breakOnMain(s);
    const [plain] = await expectVerdict(s, { rules: [] }, [['--no-release']]);
    expect(plain!.text).toContain('base: none');
    const released = {
      rules: ['version-not-bumped'],
      binaryRules: ['version-not-bumped', 'binary-not-bumped'],
      mentions: ['params › #3 changed from const char* to int'],
    };
    const runs = await expectVerdict(s, released, [[], ['--release', TAG], ['--release', tgz]]);
    expect(runs[0]!.text).toContain(`release: release ${TAG}`);
    expect(runs.at(-1)!.text).toContain('release: the packed release');
  });

  it('says so when there is no release record or tag, runs the other rules, and fails with --ci', async () => {
    const s = scenario();
    await breakOnMain(s);
    const [run] = await expectVerdict(s, { rules: [] }, [[]]);
    expect(run!.text).toContain(
      'release: none recorded (no packages/abi-headers/abi/releases/X.Y.Z/) and no @entropic-mcp/abi-headers@X.Y.Z tag',
    );
    await expectVerdict(s, { rules: ['nothing-to-compare'], mentions: ['record-release'] }, [['--ci']]);
  });
});

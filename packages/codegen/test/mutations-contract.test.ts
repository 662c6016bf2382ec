// Mutation cases the gate must classify as documented: each change is a commit on a branch of a
// scenario repository, made with the documented steps, and checked in every mode (support/mutations.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import { type Scenario, scenariosForThisFile } from './support/check-scenario.js';
import { expectVerdict, followSteps } from './support/mutations.js';

const scenario = scenariosForThisFile();

/** A scenario branch with `edit` made, then the documented steps of `kind` (or only its commands), committed. */
async function changed(
  edit: (s: Scenario) => Scenario,
  kind: 'additive' | 'breaking',
  message: string,
  only?: 'commands',
): Promise<Scenario> {
  const s = edit(scenario());
  await followSteps(s, kind, only === 'commands' ? ['command'] : undefined);
  return s.commit(message);
}

const MCP = 'src/abi/mcp_server.ts';
const ERR = 'src/abi/error.ts';
const APPEND = [
  'ENTROPIC_ERROR_SPECULATIVE_INCOMPATIBLE_CONFIG = 54,',
  'ENTROPIC_ERROR_SPECULATIVE_INCOMPATIBLE_CONFIG = 54,\n  /** Added later. */\n  ENTROPIC_ERROR_ADDED_LATER = 55,',
] as const;
const REORDER = [
  /( {2}\/\*\* The effective configuration\. \*\/\n {2}get_config: .*\n)( {2}\/\*\* The configured identities\. \*\/\n {2}get_identities: .*\n)/,
  '$2$1',
] as const;
const toCharPtr = (s: Scenario) => s.edit(MCP, 'args_json: c_const_char_ptr', 'args_json: c_char_ptr');

describe('changes that are not ABI changes pass', () => {
  it('a comment-only edit (generate, lock)', async () => {
    const edit = (s: Scenario) => s.edit(MCP, "Creates the plugin's server instance.", 'Creates one server.');
    await expectVerdict(await changed(edit, 'additive', 'reword', 'commands'), { rules: [] });
  });

  it('a renamed parameter (generate, lock)', async () => {
    const edit = (s: Scenario) => s.edit(MCP, /args_json(: c_const_char_ptr)/, 'arguments_json$1');
    await expectVerdict(await changed(edit, 'additive', 'rename', 'commands'), { rules: [] });
  });
});

describe('breaking changes without a version bump fail', () => {
  const breaking = {
    rules: ['version-not-bumped'],
    binaryRules: ['version-not-bumped', 'binary-not-bumped'],
  };

  // abidiff deems dropping a const harmless; the definitions' layer is what catches this one.

  it('a parameter type change, relocked with a minor changeset', async () => {
    const s = await changed(toCharPtr, 'additive', 'execute takes char*');
    await expectVerdict(s, {
      rules: ['version-not-bumped'],
      mentions: ['params › #3 changed from const char* to char*', '# raise ENTROPIC_MCP_PLUGIN_API_VERSION'],
    });
  });

  it('a struct member reorder', async () => {
    const s = await changed((x) => x.edit(MCP, REORDER[0], REORDER[1]), 'additive', 'reorder');
    await expectVerdict(s, {
      ...breaking,
      mentions: ['struct entropic_state_provider_t changed', '"get_identities" moved from position 2 to 1'],
    });
  });

  it('an enumerator value change', async () => {
    const renumber = (x: Scenario) =>
      x.edit(ERR, 'ENTROPIC_ERROR_TIMEOUT = 11', 'ENTROPIC_ERROR_TIMEOUT = 111');
    const s = await changed(renumber, 'additive', 'renumber');
    await expectVerdict(s, {
      ...breaking,
      mentions: ['ENTROPIC_ERROR_TIMEOUT › value changed from 11 to 111'],
    });
  });
});

describe('ABI changes made with the documented steps pass, with the binary layer too', () => {
  it('an appended enumerator with its minor changeset; without the changeset it fails', async () => {
    const append = (s: Scenario) => s.edit(ERR, APPEND[0], APPEND[1]);
    await expectVerdict(await changed(append, 'additive', 'append'), { rules: [] });
    const bare = await changed(append, 'additive', 'append without changeset', 'commands');
    await expectVerdict(bare, {
      rules: ['release-not-minor'],
      mentions: ['appended ENTROPIC_ERROR_ADDED_LATER = 55 [additive]', 'pnpm changeset'],
    });
  });

  it('a versioned breaking change (bump, generate, lock, major changeset)', async () => {
    await expectVerdict(await changed(toCharPtr, 'breaking', 'v2'), { rules: [] });
  });
});

describe('hand edits of generated or recorded files fail', () => {
  it('a hand-edited header', async () => {
    const s = scenario()
      .edit('include/entropic/interfaces/i_mcp_server.h', 'const char* tool_name,', 'int tool_name,')
      .commit('hand edit');
    await expectVerdict(s, {
      rules: ['generated-files'],
      binaryRules: ['generated-files', 'binary-reference'],
      mentions: ['i_mcp_server.h differs from a fresh generation'],
    });
  });

  it('a hand-edited lock', async () => {
    const s = scenario();
    const path = s.file('abi.lock.json');
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace('"value": 11', '"value": 12'));
    s.commit('lock edit');
    await expectVerdict(s, { rules: ['lock-integrity'], mentions: ['was edited by hand'] });
  });
});

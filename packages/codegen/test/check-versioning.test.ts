// Gate rules that compare the branch with its base: versioning of locked-ABI changes.
import { describe, expect, it } from 'vitest';
import { messages, rules, type Scenario, scenariosForThisFile } from './support/check-scenario.js';

const scenario = scenariosForThisFile();

const MCP = 'src/abi/mcp_server.ts';
const ERR = 'src/abi/error.ts';
/** A breaking change the TypeScript layer sees: execute's args_json becomes `char*`. */
const breakExecute = (s: Scenario) => s.edit(MCP, 'args_json: c_const_char_ptr', 'args_json: c_char_ptr');

describe('a branch without ABI changes', () => {
  it('passes and compares with the merge-base of main', async () => {
    const s = scenario().commit('docs elsewhere');
    const r = await s.check();
    expect(r.findings).toEqual([]);
    expect(r.notes.join('\n')).toMatch(/base: merge-base of HEAD and main/);
  });
});

describe('rule: a locked-ABI change needs an API version bump', () => {
  it('fails naming the function and the parameter type that changed', async () => {
    const s = breakExecute(scenario()).regenerate().changeset('exec-args', 'major').commit('change execute');
    const r = await s.check();
    expect(rules(r)).toEqual(['version-not-bumped']);
    const m = messages(r);
    expect(m).toContain('ENTROPIC_MCP_PLUGIN_API_VERSION is still 1');
    expect(m).toContain('function entropic_mcp_server_execute changed');
    expect(m).toContain('params › #3 changed from const char* to char*');
    expect(m).toContain('becomes 2');
  });

  it('passes once the same change bumps the version and carries a major changeset (load-bearing)', async () => {
    const s = breakExecute(scenario())
      .bumpApiVersion(2)
      .regenerate()
      .changeset('exec-args', 'major')
      .commit('v2');
    const r = await s.check();
    expect(r.findings).toEqual([]);
  });

  it('treats renumbering or removing an enumerator as breaking', async () => {
    const renumber = scenario()
      .edit(ERR, 'ENTROPIC_ERROR_INVALID_CONFIG = 2', 'ENTROPIC_ERROR_INVALID_CONFIG = 99')
      .regenerate()
      .commit('renumber');
    const r1 = await renumber.check();
    expect(rules(r1)).toContain('version-not-bumped');
    expect(messages(r1)).toMatch(/enum entropic_error_t changed/);
    expect(messages(r1)).toContain('ENTROPIC_ERROR_INVALID_CONFIG › value changed from 2 to 99');

    const removed = scenario()
      .edit(
        ERR,
        /\n\s*\/\*\* The speculative decoding settings[^\n]*\n\s*ENTROPIC_ERROR_SPECULATIVE_INCOMPATIBLE_CONFIG = 54,/,
        '',
      )
      .regenerate()
      .commit('remove');
    const r2 = await removed.check();
    expect(rules(r2)).toContain('version-not-bumped');
    expect(messages(r2)).toContain('"ENTROPIC_ERROR_SPECULATIVE_INCOMPATIBLE_CONFIG" removed');
  });

  it('reads a changed struct member and names it', async () => {
    const s = scenario()
      .edit(MCP, 'get_history: (max_entries: c_int,', 'get_history: (max_entries: c_const_char_ptr,')
      .regenerate()
      .commit('member');
    const r = await s.check();
    expect(rules(r)).toContain('version-not-bumped');
    expect(messages(r)).toContain(
      'get_history › type changed from char* (*)(int, void*) to char* (*)(const char*, void*)',
    );
  });
});

describe('rule: a bump needs a locked-ABI change', () => {
  it('fails when only the version moved', async () => {
    const s = scenario().bumpApiVersion(2).regenerate().changeset('v2', 'major').commit('bump only');
    const r = await s.check();
    expect(rules(r)).toEqual(['bump-without-change']);
    expect(messages(r)).toContain('bumped from 1 to 2');
    expect(messages(r)).toContain('locked ABI is unchanged');
  });
});

describe('rule: the API version never goes down', () => {
  it('fails a branch that returns to an older version, and not the bump before it', async () => {
    const s = breakExecute(scenario()).bumpApiVersion(2).regenerate().changeset('v2', 'major').commit('v2');
    expect((await s.check()).findings).toEqual([]);
    s.edit(MCP, 'args_json: c_char_ptr', 'args_json: c_const_char_ptr')
      .bumpApiVersion(1)
      .regenerate()
      .commit('back to v1');
    const r = await s.check({ base: 'HEAD~1' });
    expect(rules(r)).toEqual(['version-decreased']);
    expect(messages(r)).toContain('ENTROPIC_MCP_PLUGIN_API_VERSION went down from 2');
  });
});

describe('rule: a bump needs a major release of @entropic-mcp/abi-headers', () => {
  it('fails without any changeset, and with only a minor one, naming what was found', async () => {
    const none = breakExecute(scenario()).bumpApiVersion(2).regenerate().commit('v2 without changeset');
    const r1 = await none.check();
    expect(rules(r1)).toEqual(['release-not-major']);
    expect(messages(r1)).toContain('is not planned (no pending changeset names @entropic-mcp/abi-headers');

    const minor = breakExecute(scenario())
      .bumpApiVersion(2)
      .regenerate()
      .changeset('small', 'minor')
      .commit('v2');
    const r2 = await minor.check();
    expect(rules(r2)).toEqual(['release-not-major']);
    expect(messages(r2)).toContain(
      'only a minor (pending changesets for @entropic-mcp/abi-headers: small (minor)',
    );
  });

  it('accepts an untracked major changeset, and a major package version increase', async () => {
    const untracked = breakExecute(scenario()).bumpApiVersion(2).regenerate().commit('v2');
    untracked.changeset('not-yet-added', 'major');
    expect((await untracked.check()).findings).toEqual([]);

    const versioned = breakExecute(scenario())
      .bumpApiVersion(2)
      .regenerate()
      .edit('package.json', '"version": "0.1.0"', '"version": "1.0.0"')
      .commit('v2 released');
    expect((await versioned.check()).findings).toEqual([]);
  });

  it('ignores a major changeset for another package', async () => {
    const s = breakExecute(scenario())
      .bumpApiVersion(2)
      .regenerate()
      .changeset('other', 'patch')
      .commit('v2');
    const r = await s.check();
    expect(rules(r)).toEqual(['release-not-major']);
    expect(messages(r)).toContain('only a patch');
  });
});

describe('changes that need no bump', () => {
  it('passes a comment-only change (headers regenerated, no changeset)', async () => {
    const s = scenario()
      .edit(MCP, "Creates the plugin's server instance.", 'Creates one server instance of the plugin.')
      .regenerate()
      .commit('reword');
    expect(s.read('include/entropic/interfaces/i_mcp_server.h')).toContain(
      'Creates one server instance of the plugin.',
    );
    const r = await s.check();
    expect(r.findings).toEqual([]);
  });

  it('passes a renamed parameter (names are not part of the ABI)', async () => {
    const s = scenario()
      .edit(MCP, /args_json(: c_const_char_ptr)/, 'arguments_json$1')
      .regenerate()
      .commit('rename');
    expect(s.read('include/entropic/interfaces/i_mcp_server.h')).toContain('const char* arguments_json');
    const r = await s.check();
    expect(r.findings).toEqual([]);
  });

  it('passes a visibility-only change of the export macro', async () => {
    const s = scenario()
      .edit(
        'src/abi/export.ts',
        '{ when: [], expands: \'__attribute__((visibility("default")))\' }',
        "{ when: ['__CYGWIN__'], expands: '__declspec(dllexport)' },\n    { when: [], expands: '__attribute__((visibility(\"default\")))' }",
      )
      .regenerate()
      .commit('cygwin export');
    expect(s.read('include/entropic/entropic_export.h')).toContain('__CYGWIN__');
    const r = await s.check();
    expect(r.findings).toEqual([]);
  });

  it('passes an enumerator appended after the last one with a refreshed lock and a minor changeset', async () => {
    const append = (s: Scenario) =>
      s.edit(
        ERR,
        'ENTROPIC_ERROR_SPECULATIVE_INCOMPATIBLE_CONFIG = 54,',
        'ENTROPIC_ERROR_SPECULATIVE_INCOMPATIBLE_CONFIG = 54,\n  /** Added later. */\n  ENTROPIC_ERROR_ADDED_LATER = 55,',
      );
    const ok = append(scenario()).regenerate().changeset('new-code', 'minor').commit('append');
    expect((await ok.check()).findings).toEqual([]);

    const noChangeset = append(scenario()).regenerate().commit('append');
    const r = await noChangeset.check();
    expect(rules(r)).toEqual(['release-not-minor']);
    expect(messages(r)).toContain(
      'enum entropic_error_t: appended ENTROPIC_ERROR_ADDED_LATER = 55 [additive]',
    );
  });
});

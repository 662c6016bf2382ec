// Mutation cases for the plugin context (the first additive extension of API 1): adding it, growing its
// growable struct, and the changes to it that stay breaking. Each is a commit on a scenario branch made
// with the documented steps, checked in every mode (support/mutations.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { type Scenario, scenariosForThisFile, WORKSPACE } from './support/check-scenario.js';
import { expectVerdict, followSteps } from './support/mutations.js';

const scenario = scenariosForThisFile();

const CTX = 'src/abi/mcp_context.ts';
const CTX_TYPES = 'src/abi/ctypes.ts';
const CTX_HEADER = 'packages/abi-headers/include/entropic/interfaces/i_mcp_context.h';
const LAST_MEMBER = '  request_id: c_const_char_ptr;\n';

async function changed(
  edit: (s: Scenario) => Scenario,
  kind: 'additive' | 'breaking',
  message: string,
  bare = false,
) {
  const s = edit(scenario());
  await followSteps(s, kind, bare ? ['command'] : undefined);
  return s.commit(message);
}

const workspaceFile = (rel: string) => readFileSync(join(WORKSPACE, 'packages/abi-headers', rel), 'utf8');

/**
 * A scenario whose `main` predates the context (and the C types it brought: the base's definitions must
 * still read), on a branch that adds it back.
 */
async function addingTheContext(withChangeset: boolean): Promise<Scenario> {
  const s = scenario();
  s.git('checkout', '-q', 'main');
  s.git('rm', '-q', `packages/abi-headers/${CTX}`, CTX_HEADER);
  s.edit(CTX_TYPES, /\/\*\* `double` \*\/[\s\S]*export type ConstPointer<T> = [^\n]*\n/, '');
  s.regenerate().commit('API 1 without the context');
  s.git('checkout', '-q', '-b', 'context');
  s.write(CTX_TYPES, workspaceFile(CTX_TYPES));
  s.write(CTX, workspaceFile(CTX));
  await followSteps(s, 'additive', withChangeset ? undefined : ['command']);
  return s.commit('the plugin context');
}

const grow = (s: Scenario) =>
  s.edit(CTX, LAST_MEMBER, `${LAST_MEMBER}  /** Added later. */\n  client_name: c_const_char_ptr;\n`);

describe('the context is an additive change of API 1', () => {
  it('adding the header, its struct, its enum and the optional entry point passes with a minor changeset', async () => {
    await expectVerdict(await addingTheContext(true), { rules: [] });
  });

  it('and fails without one, naming what was added', async () => {
    await expectVerdict(await addingTheContext(false), {
      rules: ['release-not-minor'],
      mentions: [
        'function entropic_mcp_server_execute_with_context added: (optional)',
        'header <entropic/interfaces/i_mcp_context.h> added [additive]',
      ],
    });
  });
});

describe('the context struct may only grow at its end', () => {
  it('a member appended passes with a minor changeset (the binary layer sees only growth)', async () => {
    await expectVerdict(await changed(grow, 'additive', 'grow the context'), { rules: [] });
  });

  it('the same append without a changeset fails', async () => {
    await expectVerdict(await changed(grow, 'additive', 'grow, no changeset', true), {
      rules: ['release-not-minor'],
      mentions: ['growable struct entropic_call_context_t: appended const char* client_name [additive]'],
    });
  });

  it('two members swapped, unversioned, is breaking in both layers', async () => {
    const swap = (s: Scenario) =>
      s.edit(
        CTX,
        /( {2}\/\*\* The authenticated subject[^\n]*\n {2}subject: c_const_char_ptr;\n)( {2}\/\*\* The granted scopes[^\n]*\n {2}scopes: c_const_char_ptr;\n)/,
        '$2$1',
      );
    await expectVerdict(await changed(swap, 'additive', 'swap subject and scopes'), {
      rules: ['version-not-bumped'],
      binaryRules: ['version-not-bumped', 'binary-not-bumped'],
      mentions: ['struct entropic_call_context_t changed', '"scopes" moved from position 9 to 8'],
    });
  });

  it('a callback retyped is breaking, even with a member appended in the same change', async () => {
    const retype = (s: Scenario) =>
      grow(s).edit(
        CTX,
        '    done: c_double,\n    total: c_double,',
        '    done: c_int,\n    total: c_double,',
      );
    await expectVerdict(await changed(retype, 'additive', 'progress takes an int'), {
      rules: ['version-not-bumped'],
      binaryRules: ['version-not-bumped', 'binary-not-bumped'],
      mentions: ['struct entropic_call_context_t changed'],
    });
  });

  it('the same change made as a new API version passes', async () => {
    const retype = (s: Scenario) =>
      s.edit(CTX, '    done: c_double,\n    total: c_double,', '    done: c_int,\n    total: c_double,');
    await expectVerdict(await changed(retype, 'breaking', 'v2'), { rules: [] });
  });
});

describe('the optional entry point stays optional and keeps its signature', () => {
  it('made required (no @optional), unversioned, is breaking', async () => {
    const require = (s: Scenario) => s.edit(CTX, / \* @optional [^\n]*\n \* [^\n]*\n/, '');
    await expectVerdict(await changed(require, 'additive', 'execute_with_context required'), {
      rules: ['version-not-bumped'],
      mentions: ['function entropic_mcp_server_execute_with_context changed', 'optional removed (was true)'],
    });
  });

  it('removed, unversioned, is breaking', async () => {
    const remove = (s: Scenario) => s.edit(CTX, /\/\*\*\n \* Runs one tool, like[\s\S]*$/, '');
    await expectVerdict(await changed(remove, 'additive', 'no execute_with_context'), {
      rules: ['version-not-bumped'],
      binaryRules: ['version-not-bumped', 'binary-not-bumped'],
      mentions: ['function entropic_mcp_server_execute_with_context removed'],
    });
  });
});

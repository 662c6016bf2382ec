// The binary layer: a stub library compiled from the headers, dumped by abidw, compared by abidiff.
// These edits are made to header copies, where the TypeScript model cannot see them.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dumpHeadersAbi } from '../src/abigail/build.js';
import { compareHeadersWithReference, type ReferenceComparison } from '../src/abigail/reference.js';
import { abigailAvailable } from '../src/abigail/tools.js';
import { messages, rules, scenariosForThisFile, WORKSPACE } from './support/check-scenario.js';

const ABI = join(WORKSPACE, 'packages/abi-headers');
const REFERENCE = join(ABI, 'abi/entropic-mcp-plugin.abi');
const MAIN = 'entropic/interfaces/i_mcp_server.h';

const dirs: string[] = [];
function headersCopy(edit?: { file?: string; from: string; to: string }): string {
  const dir = mkdtempSync(join(tmpdir(), 'abi-headers-copy-'));
  dirs.push(dir);
  cpSync(join(ABI, 'include'), dir, { recursive: true });
  if (edit) {
    const file = join(dir, edit.file ?? MAIN);
    const text = readFileSync(file, 'utf8');
    if (!text.includes(edit.from)) throw new Error(`${edit.from} not in ${file}`);
    writeFileSync(file, text.replace(edit.from, edit.to));
  }
  return dir;
}
function report(c: ReferenceComparison): string {
  expect(c.kind).toBe('changed');
  return c.kind === 'changed' ? c.report : '';
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(!abigailAvailable())('binary ABI of the headers (needs abigail-tools)', () => {
  it('derives the stub from the headers: the nine entry points and the optional one, each with its canonical prototype', () => {
    const { prototypes, abi } = dumpHeadersAbi(join(ABI, 'include'));
    expect(prototypes.map((p) => p.name)).toHaveLength(10);
    expect(prototypes.find((p) => p.name === 'entropic_mcp_server_execute_with_context')?.text).toBe(
      'char *entropic_mcp_server_execute_with_context (entropic_mcp_server_t, const char *, const char *, const entropic_call_context_t *)',
    );
    expect(abi).toContain("<class-decl name='entropic_call_context_t'");
    expect(prototypes.find((p) => p.name === 'entropic_mcp_server_execute')?.text).toBe(
      'char *entropic_mcp_server_execute (entropic_mcp_server_t, const char *, const char *)',
    );
    expect(abi).toContain("<class-decl name='entropic_state_provider_t' size-in-bits='704'");
    expect(abi).toContain("<enumerator name='ENTROPIC_ERROR_SPECULATIVE_INCOMPATIBLE_CONFIG' value='54'/>");
  });

  it('the committed headers match the committed reference', () => {
    expect(compareHeadersWithReference(join(ABI, 'include'), REFERENCE)).toEqual({ kind: 'same' });
  });

  it('fails a hand-changed parameter type, naming the function and the parameter', () => {
    const dir = headersCopy({ from: 'const char* tool_name,', to: 'int tool_name,' });
    const text = report(compareHeadersWithReference(dir, REFERENCE));
    expect(text).toContain(
      "'function char* entropic_mcp_server_execute(entropic_mcp_server_t, const char*, const char*)'",
    );
    expect(text).toContain("parameter 2 of type 'const char*' changed");
  });

  it('fails a hand-changed struct member', () => {
    const dir = headersCopy({
      from: 'char* (*get_history)(int max_entries,',
      to: 'char* (*get_history)(long max_entries,',
    });
    const text = report(compareHeadersWithReference(dir, REFERENCE));
    expect(text).toContain("'entropic_state_provider_t entropic_abi_state_provider' was changed");
    expect(text).toMatch(/get_history' changed/);
    expect(text).toContain("type name changed from 'int' to 'long int'");
  });

  it('sees a dropped const and an added enumerator (the harmless kinds)', () => {
    const dropConst = headersCopy({ from: 'const char* tool_name,', to: 'char* tool_name,' });
    expect(report(compareHeadersWithReference(dropConst, REFERENCE))).toContain(
      'entropic_mcp_server_execute',
    );
    const added = headersCopy({
      file: 'entropic/types/error.h',
      from: 'ENTROPIC_ERROR_SPECULATIVE_INCOMPATIBLE_CONFIG = 54',
      to: 'ENTROPIC_ERROR_SPECULATIVE_INCOMPATIBLE_CONFIG = 54,\n    ENTROPIC_ERROR_EXTRA = 55',
    });
    expect(report(compareHeadersWithReference(added, REFERENCE))).toContain(
      "'entropic_error_t::ENTROPIC_ERROR_EXTRA' value '55'",
    );
  });

  it('ignores comment and visibility edits (load-bearing: same comparison, no ABI change)', () => {
    const comment = headersCopy({ from: '#pragma once', to: '#pragma once\n/* an extra comment */' });
    expect(compareHeadersWithReference(comment, REFERENCE)).toEqual({ kind: 'same' });
    const hidden = headersCopy({
      file: 'entropic/entropic_export.h',
      from: '__attribute__((visibility("default")))',
      to: '__attribute__((visibility("protected")))',
    });
    expect(compareHeadersWithReference(hidden, REFERENCE)).toEqual({ kind: 'same' });
  });
});

describe.skipIf(!abigailAvailable())('binary layer inside entropic-abi check (needs abigail-tools)', () => {
  const scenario = scenariosForThisFile();

  it("reports abidiff's finding for a hand-edited header", async () => {
    const s = scenario()
      .edit(`include/${MAIN}`, 'const char* tool_name,', 'int tool_name,')
      .commit('hand edit');
    const r = await s.check();
    expect(rules(r)).toEqual(['generated-files', 'binary-reference']);
    const m = r.findings[1]!.message;
    expect(m).toContain('differs from packages/abi-headers/abi/entropic-mcp-plugin.abi');
    expect(m).toContain("parameter 2 of type 'const char*' changed");
    expect(m).toContain('pnpm exec entropic-abi abi-dump --update');
  });

  it('fails a harmful change of the committed reference without an API version bump', async () => {
    const s = scenario().edit(`include/${MAIN}`, 'const char* tool_name,', 'int tool_name,');
    s.regenerate({ headers: false, lock: false });
    s.commit('reference refreshed over a hand edit');
    const r = await s.check();
    expect(rules(r)).toEqual(['generated-files', 'binary-not-bumped']);
    expect(messages(r)).toContain('The committed binary ABI reference changed incompatibly');
    expect(messages(r)).toContain("entity changed from 'const char*' to 'int'");

    // The same reference change under a bumped API version is not this rule's concern.
    s.bumpApiVersion(2)
      .regenerate({ headers: false, reference: false })
      .changeset('v2', 'major')
      .commit('bump');
    expect(rules(await s.check())).not.toContain('binary-not-bumped');
  });

  it('says when the layer is off', async () => {
    const r = await scenario().check({ binary: false });
    expect(r.notes.join('\n')).toContain('binary layer: disabled by option');
  });
});

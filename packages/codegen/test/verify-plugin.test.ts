// entropic-abi verify-plugin against real compiled plugins.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPTIONAL_ENTRY_POINTS } from '@entropic-mcp/abi-headers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pluginVerdictOk, verifyPlugin } from '../src/abigail/plugin.js';
import { abigailAvailable } from '../src/abigail/tools.js';
import { WORKSPACE } from './support/check-scenario.js';
import {
  buildPlugin,
  CONTEXT_C,
  CONTEXT_DRIFT_C,
  DRIFT_C,
  ENGINE_CALL_C,
  GOOD_C,
  GOOD_CPP,
  MISSING_C,
} from './support/verify-plugins.js';

const INCLUDE = join(WORKSPACE, 'packages/abi-headers/include');
const REFERENCE = join(WORKSPACE, 'packages/abi-headers/abi/entropic-mcp-plugin.abi');
const CLI = join(dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');
const xml = readFileSync(REFERENCE, 'utf8');
const ENTRY_POINTS = [
  'entropic_plugin_api_version',
  'entropic_create_server',
  'entropic_mcp_server_name',
  'entropic_mcp_server_list_tools',
  'entropic_mcp_server_execute',
  'entropic_mcp_server_configure',
  'entropic_mcp_server_set_working_dir',
  'entropic_mcp_server_destroy',
  'entropic_free',
];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'verify-plugin-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const verify = (lib: string) => verifyPlugin(lib, REFERENCE, xml, OPTIONAL_ENTRY_POINTS);

describe('verify-plugin: exported entry points', () => {
  it('passes a plugin with bare definitions built with -fvisibility=hidden and no DWARF', () => {
    const v = verify(buildPlugin(dir, 'good-nodebug', GOOD_C, { include: INCLUDE }));
    expect([...v.required].sort()).toEqual([...ENTRY_POINTS].sort());
    expect(v.missing).toEqual([]);
    expect(v.signaturesSkipped).toContain('no DWARF');
    expect(v.optionalExported).toEqual([]);
    expect(pluginVerdictOk(v)).toBe(true);
  });

  it('a plugin with the context entry point passes and says so; without the lock it would be required', () => {
    const lib = buildPlugin(dir, 'context', CONTEXT_C, { include: INCLUDE });
    const v = verify(lib);
    expect(v.optionalExported).toEqual(['entropic_mcp_server_execute_with_context']);
    expect(pluginVerdictOk(v)).toBe(true);
    const r = spawnSync(process.execPath, [CLI, 'verify-plugin', lib], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('• plugin context: yes (entropic_mcp_server_execute_with_context)');
    const plain = spawnSync(process.execPath, [CLI, 'verify-plugin', join(dir, 'good-nodebug.so')], {
      encoding: 'utf8',
    });
    expect(plain.stdout).toContain('• plugin context: no (a plain API-1 plugin)');
    expect(verifyPlugin(join(dir, 'good-nodebug.so'), REFERENCE, xml).missing).toEqual([
      'entropic_mcp_server_execute_with_context',
    ]);
  });

  it('names every missing entry point and one exported as data', () => {
    const v = verify(buildPlugin(dir, 'missing', MISSING_C, { include: INCLUDE, hidden: false }));
    expect(v.missing).toEqual(['entropic_mcp_server_configure', 'entropic_mcp_server_set_working_dir']);
    expect(v.notFunctions).toEqual([{ name: 'entropic_free', type: 'D' }]);
    expect(pluginVerdictOk(v)).toBe(false);
  });
});

describe("the engine's error functions are not part of the plugin contract", () => {
  it('a plugin calling entropic_error_name does not compile against our headers', () => {
    const call = GOOD_CPP.replace('return "probe";', 'return entropic_error_name(ENTROPIC_OK);');
    expect(call).not.toBe(GOOD_CPP);
    expect(() => buildPlugin(dir, 'engine-call-cpp', call, { include: INCLUDE, cxx: true })).toThrow(
      /entropic_error_name.{1,3} was not declared in this scope/,
    );
  });

  it('one that declares it itself builds, and verify-plugin names the call and fails', () => {
    const lib = buildPlugin(dir, 'engine-call', ENGINE_CALL_C, { include: INCLUDE });
    const v = verify(lib);
    expect(v.missing).toEqual([]);
    expect(v.engineCalls).toEqual(['entropic_error_name']);
    expect(pluginVerdictOk(v)).toBe(false);
    const r = spawnSync(process.execPath, [CLI, 'verify-plugin', lib], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      '✖ calls entropic_error_name, which no entropic MCP loader provides (an engine-side function',
    );
    expect(r.stderr).toContain('undefined symbol: entropic_error_name');
  });
});

describe.skipIf(!abigailAvailable())('verify-plugin: signatures from DWARF (needs abigail-tools)', () => {
  it('passes C and C++ plugins built with -g against our header', () => {
    for (const [name, src, cxx] of [
      ['good-c', GOOD_C, false],
      ['good-cpp', GOOD_CPP, true],
    ] as const) {
      const v = verify(buildPlugin(dir, name, src, { include: INCLUDE, debug: true, cxx }));
      expect(v.signaturesSkipped, name).toBeUndefined();
      expect(v.drift, name).toEqual([]);
      expect(pluginVerdictOk(v), name).toBe(true);
    }
  });

  it('names a function whose parameters drifted, with what changed', () => {
    expect(DRIFT_C).toContain('int tool, const char* args, long length');
    const v = verify(buildPlugin(dir, 'drift', DRIFT_C, { include: INCLUDE, debug: true, hidden: false }));
    expect(v.missing).toEqual([]);
    expect(v.drift.map((d) => d.name)).toEqual(['entropic_mcp_server_execute']);
    expect(v.drift[0]!.detail).toContain("parameter 2 of type 'const char*' changed");
    expect(v.drift[0]!.detail).toContain("parameter 4 of type 'long int' was added");
    expect(pluginVerdictOk(v)).toBe(false);
  });

  it('checks the optional entry point when a plugin defines it: a context signature of its own drifts', () => {
    const good = verify(buildPlugin(dir, 'context-g', CONTEXT_C, { include: INCLUDE, debug: true }));
    expect(good.drift).toEqual([]);
    expect(pluginVerdictOk(good)).toBe(true);
    const drift = verify(
      buildPlugin(dir, 'context-drift', CONTEXT_DRIFT_C, { include: INCLUDE, debug: true, hidden: false }),
    );
    expect(drift.drift.map((d) => d.name)).toEqual(['entropic_mcp_server_execute_with_context']);
    expect(pluginVerdictOk(drift)).toBe(false);
  });

  it('the command prints the verdict and exits 1 on drift, 0 on a good plugin', () => {
    const drift = spawnSync(process.execPath, [CLI, 'verify-plugin', join(dir, 'drift.so')], {
      encoding: 'utf8',
    });
    expect(drift.status).toBe(1);
    expect(drift.stderr).toContain('9 of 9 entry points exported as functions');
    expect(drift.stderr).toContain('✖ entropic_mcp_server_execute drifted from the contract:');
    expect(drift.stderr).toContain('verify-plugin: FAILED');
    const good = spawnSync(process.execPath, [CLI, 'verify-plugin', join(dir, 'good-c.so')], {
      encoding: 'utf8',
    });
    expect(good.status).toBe(0);
    expect(good.stdout).toContain('✔ the exported entry points have the contract signatures');
    const missing = spawnSync(process.execPath, [CLI, 'verify-plugin', join(dir, 'missing.so')], {
      encoding: 'utf8',
    });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain(
      '✖ missing entry points: entropic_mcp_server_configure, entropic_mcp_server_set_working_dir',
    );
  });
});

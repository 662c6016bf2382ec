// `entropic-mcp verify-plugin` reads a plugin's symbols against the ABI lock without loading it, and `inspect`
// says whether a plugin uses the plugin context.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkSymbols } from '@entropic-mcp/loader/internal';
import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { describe, expect, it } from 'vitest';
import { CLI, compileFixture, REPO_ROOT, tempDir } from './support/serve-helpers.js';

const SLOW = join(REPO_ROOT, 'examples', 'plugins', 'slow', 'build', 'slow.so');
const ECHO = join(REPO_ROOT, 'examples', 'plugins', 'echo', 'build', 'echo.so');

function cli(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });
}

describe('entropic-mcp verify-plugin', () => {
  it('passes a plugin with the plugin context and one without, saying which', () => {
    const slow = cli('verify-plugin', SLOW);
    expect(slow.status).toBe(0);
    expect(slow.stdout).toContain('9 of 9 entry points of plugin API 1 exported');
    expect(slow.stdout).toContain('• plugin context: yes (entropic_mcp_server_execute_with_context)');
    const echo = cli('verify-plugin', ECHO);
    expect(echo.status).toBe(0);
    expect(echo.stdout).toContain('• plugin context: no (a plain API-1 plugin)');
  });

  it('names every missing entry point, and a call into the engine, and fails', () => {
    const missing = cli('verify-plugin', fixture('missing-symbols'));
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain(
      '✖ missing entry points: entropic_mcp_server_configure, entropic_mcp_server_destroy, entropic_mcp_server_execute, entropic_mcp_server_list_tools',
    );
    const engine = cli('verify-plugin', fixture('engine-call'));
    expect(engine.status).toBe(1);
    expect(engine.stderr).toContain('✖ needs entropic_error_name, which no entropic MCP loader provides');
  });

  it('names a misspelt optional entry point with the one it was meant to be', () => {
    const dir = tempDir('verify-plugin');
    const source = join(dir, 'typo.c');
    writeFileSync(
      source,
      `#include <entropic/interfaces/i_mcp_server.h>
char* entropic_mcp_server_execute_with_contxt(entropic_mcp_server_t s, const char* t, const char* a, const void* c);
char* entropic_mcp_server_execute_with_contxt(entropic_mcp_server_t s, const char* t, const char* a, const void* c) {
  (void)c;
  return entropic_mcp_server_execute(s, t, a);
}
`,
    );
    const lib = compileFixture(join('plugins', 'crashy.c'), 'typo', join(dir, 'libtypo.so'), [
      '-include',
      source,
    ]);
    const verdict = checkSymbols(lib);
    expect(verdict.optional).toEqual([]);
    expect(verdict.unknown).toEqual([
      { name: 'entropic_mcp_server_execute_with_contxt', near: 'entropic_mcp_server_execute_with_context' },
    ]);
    const run = cli('verify-plugin', lib);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(
      '• exports entropic_mcp_server_execute_with_contxt, which the lock does not know (did you mean `entropic_mcp_server_execute_with_context`?)',
    );
  });

  it('refuses a file that is not a shared library, and prints JSON on request', () => {
    const broken = cli('verify-plugin', fixture('not-elf'));
    expect(broken.status).toBe(1);
    expect(broken.stderr).toContain('is not an ELF file');
    const json = JSON.parse(cli('verify-plugin', SLOW, '--json').stdout) as {
      ok: boolean;
      optional: string[];
    };
    expect(json.ok).toBe(true);
    expect(json.optional).toEqual(['entropic_mcp_server_execute_with_context']);
    expect(cli('verify-plugin').status).toBe(2);
  });
});

describe('entropic-mcp inspect and the plugin context', () => {
  it('shows whether a plugin uses it, in the table and in JSON', () => {
    expect(cli('inspect', SLOW).stdout).toMatch(
      /^context {5}yes \(entropic_mcp_server_execute_with_context/m,
    );
    expect(cli('inspect', ECHO).stdout).toContain('context     no (a plain API-1 plugin)');
    expect(JSON.parse(cli('inspect', SLOW, '--json').stdout).usesContext).toBe(true);
  });
});

// Compiles native/entropic_abi_tables.h as C++ and checks its version, symbols and error names.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { abiHeadersRoot } from '../src/index.js';
import { CXX_FLAGS, run, tempDir } from './support/cc.js';
import { CONTRACT_API_VERSION, CONTRACT_ENTRY_POINTS, CONTRACT_ERRORS } from './support/contract-facts.js';

const tmp = tempDir('entropic-ctables');
afterAll(tmp.cleanup);

const PROGRAM = `#include <entropic/interfaces/i_mcp_server.h>
#include <entropic_abi_tables.h>
#include <cstdio>
int main() {
    std::printf("version %d\\n", ENTROPIC_ABI_PLUGIN_API_VERSION);
    for (int i = 0; i < ENTROPIC_ABI_ENTRY_POINT_COUNT; ++i) std::printf("symbol %s\\n", entropic_abi_entry_points[i]);
    for (int i = 0; i < ENTROPIC_ABI_ERROR_COUNT; ++i)
        std::printf("error %s %d %s\\n", entropic_abi_errors[i].name, entropic_abi_errors[i].value,
                    entropic_abi_error_name(entropic_abi_errors[i].value));
    std::printf("unknown %s %s\\n", entropic_abi_error_name(-1), entropic_abi_error_name(ENTROPIC_ABI_ERROR_COUNT));
    std::printf("plugin_load_failed %s\\n", entropic_abi_error_name(ENTROPIC_ERROR_PLUGIN_LOAD_FAILED));
    return 0;
}
`;

describe('native/entropic_abi_tables.h (compiled as C++)', () => {
  const source = join(tmp.dir, 'tables.cpp');
  writeFileSync(source, PROGRAM);
  const exe = join(tmp.dir, 'tables');
  const root = abiHeadersRoot();
  run('g++', [...CXX_FLAGS, '-I', join(root, 'include'), '-I', join(root, 'native'), source, '-o', exe]);
  const lines = run(exe, []).trim().split('\n');

  it('carries the API version and the nine symbols in contract order', () => {
    expect(lines[0]).toBe(`version ${CONTRACT_API_VERSION}`);
    expect(lines.filter((l) => l.startsWith('symbol ')).map((l) => l.slice(7))).toEqual(
      CONTRACT_ENTRY_POINTS.map(([n]) => n),
    );
  });

  it('names every error code, and answers ENTROPIC_ERROR_UNKNOWN out of range', () => {
    expect(lines.filter((l) => l.startsWith('error '))).toEqual(
      CONTRACT_ERRORS.map(([n, v]) => `error ${n} ${v} ${n}`),
    );
    expect(lines).toContain('unknown ENTROPIC_ERROR_UNKNOWN ENTROPIC_ERROR_UNKNOWN');
    expect(lines).toContain('plugin_load_failed ENTROPIC_ERROR_PLUGIN_LOAD_FAILED');
  });
});

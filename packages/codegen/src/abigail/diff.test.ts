// Tests of reading function names out of an abidiff report.
import { describe, expect, it } from 'vitest';
import { reportedFunctions } from './diff.js';

describe('reportedFunctions', () => {
  it('reads changed and removed function names from an abidiff report', () => {
    const report = [
      "  [C] 'function char* entropic_mcp_server_execute(entropic_mcp_server_t, const char*, const char*)' at p.c:8:1 has some indirect sub-type changes:",
      "  [D] 'function void entropic_free(void*)'    {entropic_free}",
      "  [C] 'entropic_error_t entropic_abi_error_code' was changed:",
    ].join('\n');
    expect(reportedFunctions(report)).toEqual({
      changed: ['entropic_mcp_server_execute'],
      removed: ['entropic_free'],
    });
  });
});

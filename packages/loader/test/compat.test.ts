// A plugin built against the frozen first API-1 headers loads in both hosting modes.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLUGIN_API_VERSION } from '@entropic-mcp/abi-headers';
import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { describe, expect, it } from 'vitest';
import { type Isolation, loadPlugin } from '../src/index.js';

const snapshot = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'compat', 'api1-first', 'include');

describe('a plugin built against the first API-1 headers', () => {
  it('was compiled against the frozen snapshot of the same API version', () => {
    const header = readFileSync(join(snapshot, 'entropic', 'interfaces', 'i_mcp_server.h'), 'utf8');
    const version = /#define ENTROPIC_MCP_PLUGIN_API_VERSION (\d+)/.exec(header)?.[1];
    expect(Number(version)).toBe(PLUGIN_API_VERSION);
  });
  for (const isolation of ['process', 'none'] as Isolation[]) {
    it(`loads and works with the current loader (${isolation})`, async () => {
      const plugin = await loadPlugin(fixture('compat-api1-first'), {
        isolation,
        config: {},
        workingDir: '/tmp',
      });
      try {
        expect(plugin.name).toBe('compat-api1-first');
        expect(plugin.apiVersion).toBe(PLUGIN_API_VERSION);
        expect(plugin.tools.map((t) => t.name)).toEqual(['where']);
        expect(await plugin.execute('where', {})).toEqual({
          result: 'where:/tmp',
          directives: [{ type: 'complete' }],
        });
      } finally {
        await plugin.close();
      }
    });
  }
});

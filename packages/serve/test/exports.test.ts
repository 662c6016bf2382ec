/** Pins the public surface of the built package, its one bin, and the folder each part of it lives in. */

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { typeOnlyExports } from '../../server/test/support/declared-exports.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

describe('public surface', () => {
  it('the main entry exports exactly the documented names', async () => {
    const main = await import('@entropic-mcp/serve');
    expect(Object.keys(main).sort()).toEqual([
      'ConfigError',
      'ServeStartError',
      'UsageError',
      'clientConfig',
      'describeLoadFailure',
      'formatBanner',
      'loadAll',
      'loadServeConfig',
      'parseHttpAddress',
      'parseServeArgs',
      'parseServeConfig',
      'resolveServePlan',
      'startServe',
    ]);
  });

  it('the main entry declares exactly these type-only names', async () => {
    const main = await import('@entropic-mcp/serve');
    const dts = fileURLToPath(new URL('../dist/index.d.ts', import.meta.url));
    expect(typeOnlyExports(dts, main)).toEqual(
      [
        'BannerInput',
        'FailedPlugin',
        'LoadOutcome',
        'LoadedPlugin',
        'PluginEntry',
        'ServeArgs',
        'ServeFileConfig',
        'ServeHandle',
        'ServePlan',
        'ServeTransport',
        'StartOptions',
        'RegisterTools',
        'ToolsModuleContext',
      ].sort(),
    );
  });

  it('src/index.ts names every export (no export *)', () => {
    expect(readFileSync(join(src, 'index.ts'), 'utf8')).not.toMatch(/export\s*\*/);
  });

  it('owns the one entropic-mcp bin, its commands each a module of src/cli/', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
    expect(manifest.bin).toEqual({ 'entropic-mcp': './dist/cli.js' });
    const commands = readdirSync(join(src, 'cli')).filter(
      (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
    );
    expect(commands.sort()).toEqual([
      'build-native.ts',
      'call.ts',
      'inspect.ts',
      'new-plugin.ts',
      'serve.ts',
      'verify-plugin.ts',
    ]);
  });
});

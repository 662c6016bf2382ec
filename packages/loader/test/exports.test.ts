/** Pins the public surface of the built package, the folder each part of it lives in and its dependencies. */

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { typeOnlyExports } from '../../server/test/support/declared-exports.js';

const src = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

describe('public surface', () => {
  it('the main entry exports exactly the documented names', async () => {
    const main = await import('@entropic-mcp/loader');
    expect(Object.keys(main).sort()).toEqual([
      'DIRECTIVES_META_KEY',
      'ERROR_META_KEY',
      'HOST_ERROR_CODES',
      'PLUGIN_META_KEY',
      'PluginError',
      'ToolCollisionError',
      'ToolRegistrationError',
      'answerToResult',
      'errorToResult',
      'findCollisions',
      'loadPlugin',
      'mountPlugin',
      'mountPlugins',
      'parseAnswer',
      'parseToolList',
      'sandboxSupport',
      'toolName',
    ]);
  });

  it('the main entry declares exactly these type-only names', async () => {
    const main = await import('@entropic-mcp/loader');
    const dts = fileURLToPath(new URL('../dist/index.d.ts', import.meta.url));
    expect(typeOnlyExports(dts, main)).toEqual([
      'BridgeToolContext',
      'BridgeToolDefinition',
      'BridgeToolHandler',
      'BridgeToolResult',
      'CallOptions',
      'CallReply',
      'CallVoice',
      'CallerInfo',
      'DirectiveSource',
      'DirectivesHook',
      'HostErrorCode',
      'InProcessPlugin',
      'Isolation',
      'LoadOptions',
      'MountEntry',
      'MountOptions',
      'Plugin',
      'PluginAnswer',
      'PluginDirective',
      'PluginErrorDetails',
      'PluginTool',
      'ResolvedLoadOptions',
      'SandboxOptions',
      'SandboxReport',
      'SandboxSupport',
      'ToolHost',
    ]);
  });

  it('src/index.ts names every export (no export *)', () => {
    const index = readFileSync(join(src, 'index.ts'), 'utf8');
    expect(index).not.toMatch(/export\s*\*/);
  });

  it('the addon and the internal entries export exactly these names', async () => {
    expect(Object.keys(await import('@entropic-mcp/loader/addon')).sort()).toEqual([
      'PACKAGE_NAME',
      'hostCandidates',
      'loadAddon',
      'packageRoot',
      'platformLabel',
      'protectStdio',
      'resolveAddon',
      'setStdioAside',
    ]);
    expect(Object.keys(await import('@entropic-mcp/loader/internal')).sort()).toEqual([
      'checkSandboxOptions',
      'checkSymbols',
      'closest',
      'didYouMean',
      'onPluginEvent',
      'symbolsOk',
    ]);
  });

  it('the foundations, the addon and what both hosting modes share each have a folder; the root holds entries', () => {
    const sources = (dir: string) =>
      readdirSync(join(src, dir)).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    expect(sources('.').sort()).toEqual(['index.ts', 'internal.ts', 'load.ts']);
    expect(sources('bridge').sort()).toEqual(['context.ts', 'mount.ts', 'result.ts', 'types.ts']);
    expect(sources('addon')).toEqual(expect.arrayContaining(['binding.ts', 'native-files.ts', 'stdio.ts']));
    expect(sources('hosting')).toEqual(expect.arrayContaining(['checks.ts', 'hosted.ts']));
  });

  it('has no dependency that only the serve application needs', async () => {
    const manifest = JSON.parse(readFileSync(join(src, '..', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      peerDependencies?: Record<string, string>;
      bin?: unknown;
    };
    const names = Object.keys(manifest.dependencies);
    expect(
      names.filter((n) => n === 'yaml' || (n.startsWith('@opentelemetry/') && n !== '@opentelemetry/api')),
    ).toEqual([]);
    expect(manifest.peerDependencies).toBeUndefined();
    expect(manifest.bin).toBeUndefined();
  });
});

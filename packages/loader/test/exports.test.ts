/** Pins the public surface of the built package, the folder each part of it lives in and its dependencies. */

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { typeOnlyExports } from '../../server/test/support/declared-exports.js';
import { documentedCodes, errorClasses, outsideBase } from '../../server/test/support/error-codes.js';

const src = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

describe('public surface', () => {
  it('the main entry exports exactly the documented names', async () => {
    const main = await import('@entropic-mcp/loader');
    expect(Object.keys(main).sort()).toEqual([
      'DIRECTIVES_META_KEY',
      'ERROR_META_KEY',
      'HOST_ERROR_CODES',
      'LoaderError',
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

  it('every exported error extends LoaderError, and each code it throws is in docs/errors.md', async () => {
    const main = await import('@entropic-mcp/loader');
    expect(errorClasses(main)).toEqual([
      'LoaderError',
      'PluginError',
      'ToolCollisionError',
      'ToolRegistrationError',
    ]);
    expect(outsideBase(main, main.LoaderError)).toEqual([]);
    const plugin = { name: 'p' } as unknown as Parameters<typeof main.mountPlugin>[1];
    const codes = [
      new main.ToolCollisionError('m').code,
      new main.ToolRegistrationError('m', plugin).code,
      ...Object.values(main.HOST_ERROR_CODES),
    ];
    expect(codes).toEqual([
      'ENTROPIC_MCP_TOOL_COLLISION',
      'ENTROPIC_MCP_TOOL_REJECTED',
      'ENTROPIC_PLUGIN_CRASHED',
      'ENTROPIC_PLUGIN_BAD_ANSWER',
      'ENTROPIC_PLUGIN_CLOSED',
      'ENTROPIC_HOST_UNAVAILABLE',
      'ENTROPIC_SANDBOX_UNAVAILABLE',
    ]);
    const contract = ['PLUGIN_LOAD_FAILED', 'PLUGIN_VERSION_MISMATCH', 'TIMEOUT', 'CANCELLED'].map(
      (name) => new main.PluginError(`ENTROPIC_ERROR_${name}`, 'm'),
    );
    expect(contract.every((e) => e.errno !== undefined)).toBe(true);
    expect(documentedCodes('@entropic-mcp/loader')).toEqual(
      expect.arrayContaining([...codes, ...contract.map((e) => e.code)]),
    );
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
      'otelApi',
      'otelInUse',
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

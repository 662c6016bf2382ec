/** Pins the public surface of the built package and the folder each part of it lives in. */

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
      'ConfigError',
      'DIRECTIVES_META_KEY',
      'ERROR_META_KEY',
      'HOST_ERROR_CODES',
      'PLUGIN_META_KEY',
      'PluginError',
      'ServeStartError',
      'ToolCollisionError',
      'ToolRegistrationError',
      'UsageError',
      'answerToResult',
      'clientConfig',
      'describeLoadFailure',
      'errorToResult',
      'findCollisions',
      'formatBanner',
      'loadAll',
      'loadPlugin',
      'loadServeConfig',
      'mountPlugin',
      'mountPlugins',
      'parseAnswer',
      'parseHttpAddress',
      'parseServeArgs',
      'parseServeConfig',
      'parseToolList',
      'resolveServePlan',
      'sandboxSupport',
      'startServe',
      'toolName',
    ]);
  });

  it('the main entry declares exactly these type-only names', async () => {
    const main = await import('@entropic-mcp/loader');
    const dts = fileURLToPath(new URL('../dist/index.d.ts', import.meta.url));
    expect(typeOnlyExports(dts, main)).toEqual([
      'BannerInput',
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
      'FailedPlugin',
      'HostErrorCode',
      'InProcessPlugin',
      'Isolation',
      'LoadOptions',
      'LoadOutcome',
      'LoadedPlugin',
      'MountEntry',
      'MountOptions',
      'Plugin',
      'PluginAnswer',
      'PluginDirective',
      'PluginEntry',
      'PluginErrorDetails',
      'PluginTool',
      'RegisterTools',
      'ResolvedLoadOptions',
      'SandboxOptions',
      'SandboxReport',
      'SandboxSupport',
      'ServeArgs',
      'ServeFileConfig',
      'ServeHandle',
      'ServePlan',
      'ServeTransport',
      'StartOptions',
      'ToolHost',
      'ToolsModuleContext',
    ]);
  });

  it('src/index.ts names every export (no export *)', () => {
    const index = readFileSync(join(src, 'index.ts'), 'utf8');
    expect(index).not.toMatch(/export\s*\*/);
  });

  it('bridge/ holds only the mount, the plugin context and the result shaping; the serve runtime lives in serve/', () => {
    const sources = (dir: string) =>
      readdirSync(join(src, dir)).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    expect(sources('bridge').sort()).toEqual(['context.ts', 'mount.ts', 'result.ts', 'types.ts']);
    expect(sources('serve')).toEqual(expect.arrayContaining(['start.ts', 'banner.ts', 'load-all.ts']));
  });
});

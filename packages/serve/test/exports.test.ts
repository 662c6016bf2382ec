/** Pins the public surface of the built package, its one bin, and the folder each part of it lives in. */

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { typeOnlyExports } from '../../server/test/support/declared-exports.js';
import { documentedCodes, errorClasses, outsideBase } from '../../server/test/support/error-codes.js';
import { CallRefused } from '../src/cli-kit/call-check.js';
import { UsageError as CliUsageError } from '../src/cli-kit/shared.js';
import { ServeError, UsageError } from '../src/config/errors.js';
import { ConfigError } from '../src/config/parse.js';
import { OtelEnvError } from '../src/observe/otel-env.js';
import { SharedStateError } from '../src/run/shared.js';
import { ServeStartError } from '../src/run/start.js';
import { ToolsModuleError } from '../src/run/tools-modules.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

describe('public surface', () => {
  it('the main entry exports exactly the documented names', async () => {
    const main = await import('@entropic-mcp/serve');
    expect(Object.keys(main).sort()).toEqual([
      'ConfigError',
      'ServeError',
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

  it('every error extends ServeError, one UsageError for every command, each code in docs/errors.md', async () => {
    const main = await import('@entropic-mcp/serve');
    expect(errorClasses(main)).toEqual(['ConfigError', 'ServeError', 'ServeStartError', 'UsageError']);
    expect(outsideBase(main, main.ServeError)).toEqual([]);
    // The sources' classes (the built ones are the same code): the commands' errors are not exported.
    const errors = [
      new UsageError('m'),
      new ConfigError('f.yaml', 'm'),
      new ServeStartError('m'),
      new CallRefused('m'),
      new OtelEnvError('m'),
      new SharedStateError('m'),
      new ToolsModuleError('m'),
    ];
    expect(errors.every((e) => e instanceof ServeError)).toBe(true);
    expect(CliUsageError).toBe(UsageError);
    const codes = errors.map((e) => e.code);
    expect(codes).toEqual([
      'ENTROPIC_MCP_USAGE',
      'ENTROPIC_MCP_CONFIG_INVALID',
      'ENTROPIC_MCP_START_FAILED',
      'ENTROPIC_MCP_CALL_REFUSED',
      'ENTROPIC_MCP_OTEL_ENV',
      'ENTROPIC_MCP_SHARED_STATE',
      'ENTROPIC_MCP_TOOLS_MODULE',
    ]);
    expect(documentedCodes('@entropic-mcp/serve')).toEqual(codes);
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

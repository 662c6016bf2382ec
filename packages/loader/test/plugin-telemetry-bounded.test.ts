/**
 * A plugin call's telemetry names a tool only when the plugin lists it: calls with names a caller made up count
 * under `_OTHER` in `mcp.plugin.call.duration` and their spans, in both hosting modes, so they add no series.
 * A call its caller cancelled counts as `cancelled` and is not told as a plugin failure. Read from a real
 * OpenTelemetry SDK registered in this test process.
 */

import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { afterAll, describe, expect, it } from 'vitest';
import { installOtel } from '../../server/test/support/otel.js';
import { onPluginEvent, type PluginEvent } from '../src/base/telemetry.js';
import type { Plugin } from '../src/base/types.js';
import { loadPlugin } from '../src/index.js';

const otel = installOtel();
const plugins: Plugin[] = [];

afterAll(async () => {
  await Promise.all(plugins.map((p) => p.close()));
});

describe.each(['process', 'none'] as const)('plugin call telemetry (isolation %s)', (isolation) => {
  it('counts made-up tool names as _OTHER and listed ones by name', async () => {
    otel.reset();
    const plugin = await loadPlugin(fixture('chatty'), { isolation, onStderr: () => {} });
    plugins.push(plugin);
    for (let i = 0; i < 20; i++) await plugin.execute(`made-up-${i}`, {});
    await plugin.execute('say', {});
    const tools = new Set(
      (await otel.points('mcp.plugin.call.duration'))
        .filter((p) => p.attributes['entropic.plugin.isolation'] === isolation)
        .map((p) => p.attributes['entropic.plugin.tool']),
    );
    expect(tools).toEqual(new Set(['_OTHER', 'say']));
    const names = otel.spans().map((s) => s.name);
    expect(names.filter((n) => n.includes('made-up'))).toEqual([]);
    expect(names).toContain('plugin.execute chatty._OTHER');
  });

  it('counts a cancelled call as cancelled, and tells only real failures', async () => {
    otel.reset();
    const told: PluginEvent[] = [];
    const stop = onPluginEvent((event) => told.push(event));
    try {
      const plugin = await loadPlugin(fixture('crashy'), { isolation, onStderr: () => {} });
      plugins.push(plugin);
      const controller = new AbortController();
      const slow = plugin.execute('sleep', { ms: 300 }, { signal: controller.signal });
      controller.abort();
      await expect(slow).rejects.toMatchObject({ code: 'ENTROPIC_ERROR_CANCELLED' });
      await expect(plugin.execute('sleep', { ms: 300 }, { timeoutMs: 20 })).rejects.toMatchObject({
        code: 'ENTROPIC_ERROR_TIMEOUT',
      });
      const types = otel
        .spans()
        .filter((span) => span.name === 'plugin.execute crashy.sleep')
        .map((span) => span.attributes['error.type']);
      expect(types).toEqual(['cancelled', 'ENTROPIC_ERROR_TIMEOUT']);
      const kinds = (await otel.points('mcp.plugin.call.duration'))
        .filter((p) => p.attributes['entropic.plugin.isolation'] === isolation)
        .map((p) => p.attributes['error.type']);
      expect(kinds).toContain('cancelled');
      expect(told.filter((e) => e.kind === 'call-failed').map((e) => (e as { code: string }).code)).toEqual([
        'ENTROPIC_ERROR_TIMEOUT',
      ]);
    } finally {
      stop();
    }
  });
});

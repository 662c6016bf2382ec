/**
 * A plugin call's telemetry names a tool only when the plugin lists it: calls with names a caller made up count
 * under `_OTHER` in `mcp.plugin.call.duration` and their spans, in both hosting modes, so they add no series.
 * Read from a real OpenTelemetry SDK registered in this test process.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { installOtel } from '../../server/test/support/otel.js';
import { loadPlugin } from '../src/index.js';
import type { Plugin } from '../src/types.js';
import { fixture } from './support/fixtures.js';

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
});

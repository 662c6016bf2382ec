/** Both hosting modes word every refusal of the call guard identically: same code, same message. */

import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { describe, expect, it } from 'vitest';
import type { Isolation, PluginError } from '../src/index.js';
import { callError, fixtureLoader, loadError } from './support/suite/helpers.js';

/** Runs `scenario` in both modes and returns [code, message] of each. */
async function inBothModes(
  scenario: (isolation: Isolation) => Promise<PluginError>,
): Promise<Record<Isolation, [string, string]>> {
  const out = {} as Record<Isolation, [string, string]>;
  for (const isolation of ['process', 'none'] as const) {
    const error = await scenario(isolation);
    out[isolation] = [error.code, error.message];
  }
  return out;
}

function sameInBoth(words: Record<Isolation, [string, string]>, code: string, text: RegExp): void {
  expect(words.none).toEqual(words.process);
  expect(words.process[0]).toBe(code);
  expect(words.process[1]).toMatch(text);
}

/** One call on the crashy fixture's `sleep` tool in the given mode, with what `options` asks. */
function sleepCall(
  isolation: Isolation,
  body: (p: import('../src/index.js').Plugin) => Promise<PluginError>,
) {
  return async () => {
    const { open } = fixtureLoader(isolation);
    const plugin = await open('crashy');
    try {
      return await body(plugin);
    } finally {
      await plugin.close();
    }
  };
}

describe('one wording per refusal in both hosting modes', () => {
  it('a plugin built for another API version', async () => {
    const words = await inBothModes((isolation) => loadError(fixture('wrong-version'), { isolation }));
    sameInBoth(
      words,
      'ENTROPIC_ERROR_PLUGIN_VERSION_MISMATCH',
      /API version 2 but this loader speaks version 1; rebuild/,
    );
  });

  it('a call past its time limit', async () => {
    const words = await inBothModes((isolation) =>
      sleepCall(isolation, (p) => callError(p.execute('sleep', { ms: 400 }, { timeoutMs: 50 })))(),
    );
    sameInBoth(words, 'ENTROPIC_ERROR_TIMEOUT', /: execute of tool "sleep" did not answer within 50 ms$/);
  });

  it('a call whose signal aborts while it runs', async () => {
    const words = await inBothModes((isolation) =>
      sleepCall(isolation, (p) => {
        const controller = new AbortController();
        const call = p.execute('sleep', { ms: 300 }, { signal: controller.signal });
        setTimeout(() => controller.abort(), 30);
        return callError(call);
      })(),
    );
    sameInBoth(words, 'ENTROPIC_ERROR_CANCELLED', /: execute of tool "sleep" was cancelled$/);
  });

  it('a call cancelled through its cancel hook', async () => {
    const words = await inBothModes((isolation) =>
      sleepCall(isolation, (p) => {
        let fire: (() => void) | undefined;
        const call = p.execute('sleep', { ms: 300 }, { cancel: { onAbort: (hook) => (fire = hook) } });
        setTimeout(() => fire?.(), 30);
        return callError(call);
      })(),
    );
    sameInBoth(words, 'ENTROPIC_ERROR_CANCELLED', /: execute of tool "sleep" was cancelled$/);
  });

  it('a call whose signal aborted before it was made', async () => {
    const words = await inBothModes((isolation) =>
      sleepCall(isolation, (p) => callError(p.execute('echo', {}, { signal: AbortSignal.abort() })))(),
    );
    sameInBoth(
      words,
      'ENTROPIC_ERROR_CANCELLED',
      /: execute of tool "echo" was cancelled before it started$/,
    );
  });

  it('a call after close()', async () => {
    const words = await inBothModes(async (isolation) => {
      const { open } = fixtureLoader(isolation);
      const plugin = await open('crashy');
      await plugin.close();
      return callError(plugin.execute('echo', {}));
    });
    sameInBoth(words, 'ENTROPIC_PLUGIN_CLOSED', /is closed; execute of tool "echo" came after close\(\)$/);
  });
});

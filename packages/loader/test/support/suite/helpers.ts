/** Types and helpers the shared plugin suite's files use. */

import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { expect } from 'vitest';
import {
  type Isolation,
  type LoadOptions,
  loadPlugin,
  type Plugin,
  PluginError,
} from '../../../src/index.js';

export interface SuiteCapabilities {
  /** The mode survives a plugin that segfaults, aborts or exits, and restarts it. */
  readonly crashes: boolean;
  /** A hung call can be timed out or cancelled and the plugin used again. */
  readonly hangs: boolean;
  /** `memoryLimitMb` is enforced. */
  readonly memoryLimit: boolean;
}

export interface SuiteOptions {
  readonly isolation: Isolation;
  readonly capabilities: SuiteCapabilities;
}

export async function loadError(path: string, options: LoadOptions = {}): Promise<PluginError> {
  const error = await loadPlugin(path, options).then(
    (p) => {
      void p.close();
      throw new Error(`${path} loaded but should have been refused`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PluginError);
  return error as PluginError;
}

export async function callError(promise: Promise<unknown>): Promise<PluginError> {
  const error = await promise.then(
    () => {
      throw new Error('the call succeeded but should have failed');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PluginError);
  return error as PluginError;
}

/** `open(fixture)` loads a fixture in the suite's mode; `using(fixture, body)` also closes it afterwards. */
export function fixtureLoader(isolation: Isolation) {
  const quiet = isolation === 'process' ? { onStderr: () => {} } : {};
  const open = (name: string, options: LoadOptions = {}) =>
    loadPlugin(fixture(name), { isolation, ...quiet, ...options });
  const using = async (name: string, body: (p: Plugin) => Promise<void>, options: LoadOptions = {}) => {
    const plugin = await open(name, options);
    try {
      await body(plugin);
    } finally {
      await plugin.close();
    }
  };
  return { open, using };
}

/**
 * Isolated hosting (the default): each loaded plugin lives in its own `entropic_plugin_host` process, so a
 * crash, a hang or a runaway allocation in the plugin cannot reach Node. See `session.ts` for what happens to
 * calls on a crash, a timeout or a cancellation.
 */

import { findHost } from '../addon/find-host.js';
import type { Isolation, Plugin } from '../base/types.js';
import type { ResolvedLoadOptions } from '../hosting/checks.js';
import { HostedPlugin } from '../hosting/hosted.js';
import type { Call } from '../wire/calls.js';
import type { Ready } from '../wire/decode.js';
import { Op } from '../wire/frames.js';
import { HostSession } from './session.js';

class IsolatedPlugin extends HostedPlugin {
  readonly isolation: Isolation = 'process';
  readonly #session: HostSession;

  constructor(path: string, options: ResolvedLoadOptions) {
    super(path, options);
    const plan = options.sandboxPlan;
    this.sandbox = plan?.report;
    const spawn = {
      hostPath: findHost(options.hostPath, path),
      pluginPath: path,
      memoryLimitMb: plan?.memoryMb ?? options.memoryLimitMb,
      onStderr: options.onStderr,
      masker: options.masker,
      sandboxEnv: plan?.env,
      leftovers: plan?.leftovers,
    };
    this.#session = new HostSession(
      spawn,
      this.site,
      () => {
        const steps: { op: Op; first: string }[] = [];
        if (this.config !== undefined) steps.push({ op: Op.configure, first: this.config });
        if (this.workingDir !== undefined) steps.push({ op: Op.setWorkingDir, first: this.workingDir });
        return steps;
      },
      options.cancelGraceMs,
    );
  }

  get pending(): number {
    return this.#session.pending;
  }

  protected submit(call: Call): void {
    this.#session.submit(call);
  }

  protected stop(call: Call, error: Error): void {
    this.#session.stop(call, error);
  }

  protected start(): Promise<Ready> {
    return this.#session.start();
  }

  protected closed(): Promise<void> {
    return this.#session.exited();
  }

  protected abort(): Promise<void> {
    return this.#session.kill();
  }
}

export async function load(path: string, options: ResolvedLoadOptions): Promise<Plugin> {
  const plugin = new IsolatedPlugin(path, options);
  await plugin.open(options.configJson, options.workingDir);
  return plugin;
}

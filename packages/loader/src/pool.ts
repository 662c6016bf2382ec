/**
 * Several instances of one plugin behind the one `Plugin` surface (`instances: N`). Each instance is a plugin
 * loaded on its own (its own host process, or its own thread in-process), so calls run on N at once. A call goes
 * to the instance with the fewest calls in flight; `configure` and `setWorkingDir` reach every instance; a crash
 * fails and restarts only the instance it happened in. Instances share no state: a plugin that keeps state
 * across calls belongs at `instances: 1`.
 */
import type { CallOptions, Isolation, Plugin, PluginAnswer, PluginTool } from './types.js';

export class PluginPool implements Plugin {
  readonly #members: readonly Plugin[];
  readonly #busy: number[];
  /** Where the search for the least-busy instance starts: rotates, so ties spread over every instance. */
  #next = 0;

  constructor(members: readonly Plugin[]) {
    if (members.length === 0) throw new TypeError('a plugin pool needs at least one instance');
    this.#members = members;
    this.#busy = members.map(() => 0);
  }

  get name(): string {
    return this.#first.name;
  }
  get path(): string {
    return this.#first.path;
  }
  get apiVersion(): number {
    return this.#first.apiVersion;
  }
  get isolation(): Isolation {
    return this.#first.isolation;
  }
  get tools(): readonly PluginTool[] {
    return this.#first.tools;
  }
  get instances(): number {
    return this.#members.length;
  }

  get #first(): Plugin {
    return this.#members[0] as Plugin;
  }

  /** Calls in flight on each instance, in instance order. */
  get load(): readonly number[] {
    return [...this.#busy];
  }

  listTools(): Promise<PluginTool[]> {
    return this.#first.listTools();
  }

  execute(tool: string, args: unknown, options?: CallOptions): Promise<PluginAnswer> {
    const at = this.#leastBusy();
    const busy = this.#busy;
    busy[at] = (busy[at] as number) + 1;
    return (this.#members[at] as Plugin).execute(tool, args, options).then(
      (answer) => {
        busy[at] = (busy[at] as number) - 1;
        return answer;
      },
      (error: unknown) => {
        busy[at] = (busy[at] as number) - 1;
        throw error;
      },
    );
  }

  async configure(config: unknown): Promise<void> {
    await this.#everyInstance((p) => p.configure(config));
  }

  async setWorkingDir(path: string): Promise<void> {
    await this.#everyInstance((p) => p.setWorkingDir(path));
  }

  async close(): Promise<void> {
    await this.#everyInstance((p) => p.close());
  }

  #leastBusy(): number {
    const n = this.#members.length;
    let pick = this.#next;
    let least = this.#busy[pick] as number;
    for (let k = 1; k < n && least > 0; k++) {
      const at = (this.#next + k) % n;
      const busy = this.#busy[at] as number;
      if (busy < least) {
        least = busy;
        pick = at;
      }
    }
    this.#next = (pick + 1) % n;
    return pick;
  }

  /** Runs `step` on every instance; rejects with the first failure once all have settled. */
  async #everyInstance(step: (p: Plugin) => Promise<void>): Promise<void> {
    const outcomes = await Promise.allSettled(this.#members.map(step));
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  }
}

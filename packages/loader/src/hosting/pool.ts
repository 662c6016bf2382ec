/**
 * Several instances of one plugin behind the one `Plugin` surface (`instances: N`). Each instance is a plugin
 * loaded on its own (its own host process, or its own thread in-process), so calls run on N at once. A call goes
 * to the instance with the fewest calls pending; `configure` and `setWorkingDir` reach every instance; a crash
 * fails and restarts only the instance it happened in. Instances share no state: a plugin that keeps state
 * across calls belongs at `instances: 1`.
 */
import type {
  CallOptions,
  CallReply,
  Isolation,
  Plugin,
  PluginAnswer,
  PluginTool,
  SandboxReport,
} from '../base/types.js';

export class PluginPool implements Plugin {
  readonly #members: readonly Plugin[];
  /** Where the search for the least-busy instance starts: rotates, so ties spread over every instance. */
  #next = 0;

  constructor(members: readonly Plugin[]) {
    if (members.length === 0) throw new TypeError('a plugin pool needs at least one instance');
    this.#members = members;
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
  get usesContext(): boolean {
    return this.#first.usesContext;
  }
  get isolation(): Isolation {
    return this.#first.isolation;
  }
  get tools(): readonly PluginTool[] {
    return this.#first.tools;
  }
  get sandbox(): SandboxReport | undefined {
    return this.#first.sandbox;
  }
  get instances(): number {
    return this.#members.length;
  }

  get #first(): Plugin {
    return this.#members[0] as Plugin;
  }

  get pending(): number {
    let sum = 0;
    for (const member of this.#members) sum += member.pending;
    return sum;
  }

  listTools(): Promise<PluginTool[]> {
    return this.#first.listTools();
  }

  execute(tool: string, args: unknown, options?: CallOptions): Promise<PluginAnswer> {
    return (this.#members[this.#leastBusy()] as Plugin).execute(tool, args, options);
  }

  call(tool: string, args: unknown, reply: CallReply<PluginAnswer>, options?: CallOptions): void {
    (this.#members[this.#leastBusy()] as Plugin).call(tool, args, reply, options);
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
    let least = (this.#members[pick] as Plugin).pending;
    for (let k = 1; k < n && least > 0; k++) {
      const at = (this.#next + k) % n;
      const busy = (this.#members[at] as Plugin).pending;
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

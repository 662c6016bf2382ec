/**
 * `isolation: 'none'`: the plugin runs inside this Node process, on a thread of its own (see
 * `native/addon/plugin_instance.h`). Calls into one instance never overlap; instances run in parallel; the JS
 * thread and the libuv threadpool never wait on a plugin. A crash in the plugin takes the whole process down:
 * use it for plugins you trust, when the few microseconds a call saves matter.
 */
import {
  argsToJson,
  checkCallOptions,
  checkDirectory,
  checkToolName,
  configToJson,
  type ResolvedLoadOptions,
} from '../checks.js';
import type { PluginError } from '../errors.js';
import {
  type CallLimits,
  type CallSite,
  callSite,
  closedError,
  loadRefusal,
  type StopCode,
  stoppedError,
} from '../guard.js';
import type { CallOptions, Isolation, Plugin, PluginAnswer, PluginTool } from '../types.js';
import { parseAnswer, parseToolList } from '../validate.js';
import { type Addon, JobKind, type NativePlugin } from './binding.js';
import { CallTable } from './calls.js';
import { track, untrack } from './exit.js';

/** A plugin hosted in-process; it adds a synchronous call path to the `Plugin` surface. */
export interface InProcessPlugin extends Plugin {
  /**
   * Calls `execute` on the JS thread and returns the validated answer. It BLOCKS the JS thread: first until
   * every call queued on this instance has finished, then for the whole call. Meant for hot loops over fast
   * tools; it has no time limit and cannot be cancelled.
   */
  executeSync(tool: string, args: unknown): PluginAnswer;
}

export class InProcessHost implements InProcessPlugin {
  readonly isolation: Isolation = 'none';
  readonly instances = 1;
  readonly path: string;
  name = '';
  apiVersion = 0;
  tools: readonly PluginTool[] = [];
  readonly #calls: CallTable;
  readonly #native: NativePlugin;
  readonly #defaults: CallLimits;
  #closing: Promise<void> | undefined;

  constructor(addon: Addon, path: string, options: ResolvedLoadOptions) {
    this.path = path;
    this.#defaults = { timeoutMs: options.timeoutMs };
    let native: NativePlugin | undefined;
    this.#calls = new CallTable(
      (settle) => {
        native = new addon.NativePlugin(path, settle);
        return native;
      },
      (code, what, tool) => this.#stoppedError(code, what, tool),
      (text, tool) => parseAnswer(text, { path: this.path, plugin: this.name, tool }),
    );
    this.#native = native as NativePlugin;
    track(this.#native);
  }

  /** Load, create and name (the addon checks the contract), then configure, set the directory, list tools. */
  async open(options: ResolvedLoadOptions): Promise<void> {
    try {
      const loaded = await this.#calls.start(JobKind.load, this.path, '', this.#defaults);
      [this.name, this.apiVersion] = loaded as [string, number];
      if (options.configJson !== undefined) await this.#call(JobKind.configure, options.configJson);
      if (options.workingDir !== undefined) await this.#call(JobKind.setWorkingDir, options.workingDir);
      this.tools = Object.freeze(await this.listTools());
    } catch (failure) {
      const error = loadRefusal(failure, this.path);
      // A step that timed out may still be inside the plugin; the destroy then runs after it, unawaited.
      const closing = this.close();
      if ((error as PluginError).code !== 'ENTROPIC_ERROR_TIMEOUT') await closing;
      throw error;
    }
  }

  async listTools(): Promise<PluginTool[]> {
    const text = (await this.#call(JobKind.listTools, '')) as string | null;
    return parseToolList(text, { path: this.path, plugin: this.name });
  }

  execute(tool: string, args: unknown, options?: CallOptions): Promise<PluginAnswer> {
    try {
      const name = checkToolName(tool);
      const json = argsToJson(args);
      const limits = checkCallOptions(options, this.#defaults);
      return this.#call(JobKind.execute, name, json, limits, name) as Promise<PluginAnswer>;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  executeSync(tool: string, args: unknown): PluginAnswer {
    const name = checkToolName(tool);
    const json = argsToJson(args);
    if (this.#closing !== undefined) throw this.#closedError(name);
    this.#calls.flush();
    const text = this.#native.executeSync(name, json);
    return parseAnswer(text, { path: this.path, plugin: this.name, tool: name });
  }

  async configure(config: unknown): Promise<void> {
    await this.#call(JobKind.configure, configToJson(config));
  }

  async setWorkingDir(path: string): Promise<void> {
    await this.#call(JobKind.setWorkingDir, checkDirectory(path, 'working directory'));
  }

  /** Queues the destroy behind every call already queued; resolves once the library is unloaded. */
  close(): Promise<void> {
    if (this.#closing === undefined) {
      this.#closing = this.#calls.start(JobKind.destroy, '', '').then(() => untrack(this.#native));
    }
    return this.#closing;
  }

  #call(kind: JobKind, first: string, second = '', limits = this.#defaults, tool?: string): Promise<unknown> {
    if (this.#closing !== undefined) return Promise.reject(this.#closedError(tool));
    return this.#calls.start(kind, first, second, limits, tool);
  }

  #stoppedError(code: StopCode, why: string, tool: string | undefined): PluginError {
    return stoppedError(this.#site(tool), code, why);
  }

  #closedError(tool: string | undefined): PluginError {
    return closedError(this.#site(tool));
  }

  #site(tool: string | undefined): CallSite {
    return callSite(this.path, this.name, tool);
  }
}

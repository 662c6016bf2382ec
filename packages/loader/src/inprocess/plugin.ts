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
import { describePlugin, HOST_ERROR_CODES, PluginError } from '../errors.js';
import type { CallOptions, Isolation, Plugin, PluginAnswer, PluginTool } from '../types.js';
import { parseAnswer, parseToolList } from '../validate.js';
import { type Addon, JobKind, type NativePlugin } from './binding.js';
import { type CallLimits, CallTable } from './calls.js';
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
  readonly path: string;
  name = '';
  apiVersion = 0;
  tools: readonly PluginTool[] = [];
  readonly #calls = new CallTable();
  readonly #native: NativePlugin;
  readonly #timeoutMs: number;
  #closing: Promise<void> | undefined;

  constructor(addon: Addon, path: string, options: ResolvedLoadOptions) {
    this.path = path;
    this.#timeoutMs = options.timeoutMs;
    this.#native = new addon.NativePlugin(path, this.#calls.settle);
    this.#calls.attach(this.#native);
    track(this.#native);
  }

  /** Load, create and name (the addon checks the contract), then configure, set the directory, list tools. */
  async open(options: ResolvedLoadOptions): Promise<void> {
    try {
      const limits = this.#limits(undefined, { timeoutMs: this.#timeoutMs });
      const [name, apiVersion] = (await this.#calls.start(JobKind.load, this.path, undefined, limits)) as [
        string,
        number,
      ];
      this.name = name;
      this.apiVersion = apiVersion;
      if (options.configJson !== undefined) await this.#returnCode(JobKind.configure, options.configJson);
      if (options.workingDir !== undefined) await this.#returnCode(JobKind.setWorkingDir, options.workingDir);
      this.tools = Object.freeze(await this.listTools());
    } catch (error) {
      // A step that timed out may still be inside the plugin; the destroy then runs after it, unawaited.
      const closing = this.close();
      if ((error as PluginError).code !== 'ENTROPIC_ERROR_TIMEOUT') await closing;
      throw error;
    }
  }

  async listTools(): Promise<PluginTool[]> {
    const text = (await this.#call(JobKind.listTools, '', undefined, undefined)) as string | null;
    return parseToolList(text, { path: this.path, plugin: this.name });
  }

  execute(tool: string, args: unknown, options?: CallOptions): Promise<PluginAnswer> {
    try {
      const name = checkToolName(tool);
      const json = argsToJson(args);
      const ctx = { path: this.path, plugin: this.name, tool: name };
      return this.#call(JobKind.execute, name, json, options, name).then((text) =>
        parseAnswer(text as string | null, ctx),
      );
    } catch (error) {
      return Promise.reject(error);
    }
  }

  executeSync(tool: string, args: unknown): PluginAnswer {
    const name = checkToolName(tool);
    const json = argsToJson(args);
    if (this.#closing !== undefined) throw this.#closedError(name);
    const text = this.#native.executeSync(name, json);
    return parseAnswer(text, { path: this.path, plugin: this.name, tool: name });
  }

  async configure(config: unknown): Promise<void> {
    await this.#returnCode(JobKind.configure, configToJson(config));
  }

  async setWorkingDir(path: string): Promise<void> {
    await this.#returnCode(JobKind.setWorkingDir, checkDirectory(path, 'working directory'));
  }

  /** Queues the destroy behind every call already queued; resolves once the library is unloaded. */
  close(): Promise<void> {
    if (this.#closing === undefined) {
      this.#closing = this.#calls.start(JobKind.destroy, '', undefined).then(() => untrack(this.#native));
    }
    return this.#closing;
  }

  #returnCode(kind: JobKind, text: string): Promise<unknown> {
    return this.#call(kind, text, undefined, undefined);
  }

  #call(
    kind: JobKind,
    first: string,
    second: string | undefined,
    options: CallOptions | undefined,
    tool?: string,
  ) {
    if (this.#closing !== undefined) return Promise.reject(this.#closedError(tool));
    return this.#calls.start(
      kind,
      first,
      second,
      this.#limits(tool, checkCallOptions(options, this.#timeoutMs)),
    );
  }

  #limits(tool: string | undefined, checked: { signal?: AbortSignal; timeoutMs: number }): CallLimits {
    const call = tool === undefined ? 'a call' : `execute of tool "${tool}"`;
    const stopped = (code: string, what: string) => {
      const late =
        code === 'ENTROPIC_ERROR_TIMEOUT'
          ? ' (an in-process call cannot be interrupted: it runs on, its answer is discarded)'
          : '';
      return new PluginError(
        code,
        `${describePlugin(this.path, this.name || undefined)}: ${call} ${what}${late}`,
        {
          path: this.path,
          plugin: this.name || undefined,
          tool,
        },
      );
    };
    return { ...checked, stopped };
  }

  #closedError(tool: string | undefined): PluginError {
    const what = tool === undefined ? 'a call' : `execute of tool "${tool}"`;
    return new PluginError(
      HOST_ERROR_CODES.closed,
      `${describePlugin(this.path, this.name)} is closed; ${what} came after close()`,
      {
        path: this.path,
        plugin: this.name,
        tool,
      },
    );
  }
}

/**
 * Isolated hosting (the default): each loaded plugin lives in its own `entropic_plugin_host` process, so a
 * crash, a hang or a runaway allocation in the plugin cannot reach Node. See `session.ts` for what happens to
 * calls on a crash, a timeout or a cancellation.
 */
import {
  argsToJson,
  checkCallOptions,
  checkDirectory,
  checkToolName,
  configToJson,
  type ResolvedLoadOptions,
} from '../checks.js';
import {
  armCall,
  type CallLimits,
  type CallSite,
  callSite,
  cancelledAlready,
  closedError,
  loadTimeoutError,
  STOPPED,
  stoppedError,
} from '../guard.js';
import type { CallOptions, Isolation, Plugin, PluginAnswer, PluginTool } from '../types.js';
import { parseAnswer, parseToolList } from '../validate.js';
import { findHost } from './find-host.js';
import { Op } from './frames.js';
import { type Call, codeDecoder, type Decoder, HostSession, textDecoder } from './session.js';

class IsolatedPlugin implements Plugin {
  readonly isolation: Isolation = 'process';
  readonly instances = 1;
  readonly path: string;
  name = '';
  apiVersion = 0;
  tools: readonly PluginTool[] = [];
  #session: HostSession;
  #limits: CallLimits;
  #config: string | undefined;
  #workingDir: string | undefined;
  #closing: Promise<void> | undefined;
  readonly #decoders = new Map<string, Decoder>();

  constructor(path: string, options: ResolvedLoadOptions) {
    this.path = path;
    this.#limits = { timeoutMs: options.timeoutMs };
    const spawn = {
      hostPath: findHost(options.hostPath, path),
      pluginPath: path,
      memoryLimitMb: options.memoryLimitMb,
      onStderr: options.onStderr,
    };
    this.#session = new HostSession(spawn, () => {
      const steps: { op: Op; parts: string[] }[] = [];
      if (this.#config !== undefined) steps.push({ op: Op.configure, parts: [this.#config] });
      if (this.#workingDir !== undefined) steps.push({ op: Op.setWorkingDir, parts: [this.#workingDir] });
      return steps;
    });
  }

  async open(options: ResolvedLoadOptions): Promise<void> {
    try {
      const ready = await this.#limitLoad(this.#session.start(), options.timeoutMs);
      this.name = ready.name;
      this.apiVersion = ready.apiVersion;
      if (options.configJson !== undefined) await this.configure(JSON.parse(options.configJson));
      if (options.workingDir !== undefined) await this.setWorkingDir(options.workingDir);
      this.tools = Object.freeze(await this.listTools());
    } catch (error) {
      await this.#session.stop();
      throw error;
    }
  }

  /** Loading (dlopen, create, name) gets the same time limit as a call, when there is one. */
  #limitLoad<T>(loading: Promise<T>, ms: number): Promise<T> {
    if (ms <= 0) return loading;
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(loadTimeoutError(this.path, ms)), ms);
    });
    return Promise.race([loading, limit]).finally(() => clearTimeout(timer));
  }

  listTools(): Promise<PluginTool[]> {
    const text = textDecoder(this.path, this.name);
    const ctx = { path: this.path, plugin: this.name };
    return this.#call(Op.listTools, [], undefined, (s, b, from, to) =>
      parseToolList(text(s, b, from, to), ctx),
    );
  }

  execute(tool: string, args: unknown, options?: CallOptions): Promise<PluginAnswer> {
    try {
      const name = checkToolName(tool);
      const json = argsToJson(args);
      return this.#call(Op.execute, [name, json], name, this.#decoderOf(name), options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The answer decoder of one tool, made once per tool name after the plugin's name is known. */
  #decoderOf(tool: string): Decoder {
    let decode = this.#decoders.get(tool);
    if (decode === undefined) {
      const text = textDecoder(this.path, this.name);
      const ctx = { path: this.path, plugin: this.name, tool };
      decode = (s: number, b: Buffer, from: number, to: number) => parseAnswer(text(s, b, from, to), ctx);
      if (this.name !== '' && this.#decoders.size < 4096) this.#decoders.set(tool, decode);
    }
    return decode;
  }

  async configure(config: unknown): Promise<void> {
    const json = configToJson(config);
    await this.#call(Op.configure, [json], undefined, codeDecoder(this.path, this.name, Op.configure));
    this.#config = json;
  }

  async setWorkingDir(path: string): Promise<void> {
    const dir = checkDirectory(path, 'working directory');
    await this.#call(Op.setWorkingDir, [dir], undefined, codeDecoder(this.path, this.name, Op.setWorkingDir));
    this.#workingDir = dir;
  }

  close(): Promise<void> {
    if (this.#closing === undefined) {
      const closeCall = this.#call(Op.close, [], undefined, () => undefined);
      this.#closing = closeCall.then(() => this.#session.exited());
    }
    return this.#closing;
  }

  #call<T>(
    op: Op,
    parts: string[],
    tool: string | undefined,
    decode: Decoder,
    options?: CallOptions,
  ): Promise<T> {
    if (this.#closing !== undefined) return Promise.reject(closedError(this.#site(tool)));
    const limits = checkCallOptions(options, this.#limits);
    if (cancelledAlready(limits)) {
      const error = stoppedError(this.#site(tool), 'ENTROPIC_ERROR_CANCELLED', STOPPED.cancelledEarly);
      return Promise.reject(error);
    }
    return new Promise<T>((resolve, reject) => {
      const call: Call = {
        op,
        parts,
        tool,
        decode,
        settled: false,
        resolve: resolve as (value: unknown) => void,
        reject,
      };
      this.#session.submit(call);
      const disarm = armCall(limits, (code, why) =>
        this.#session.abandon(call, stoppedError(this.#site(tool), code, why)),
      );
      if (disarm === undefined) return;
      if (call.settled) {
        disarm(); // the cancel hook fired at once
        return;
      }
      call.resolve = (value) => {
        disarm();
        resolve(value as T);
      };
      call.reject = (error) => {
        disarm();
        reject(error);
      };
    });
  }

  #site(tool: string | undefined): CallSite {
    return callSite(this.path, this.name, tool);
  }
}

export async function load(path: string, options: ResolvedLoadOptions): Promise<Plugin> {
  const plugin = new IsolatedPlugin(path, options);
  await plugin.open(options);
  return plugin;
}

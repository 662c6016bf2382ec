/**
 * The `Plugin` surface of one plugin instance, written once for both hosting modes: argument checks, the call
 * guard (time limit, cancellation, closed plugin), the load sequence and the calls' books. A hosting mode says
 * only how calls reach its instance and what stopping one early means there (`isolated/`, `inprocess/`).
 */

import type { PluginError } from '../base/errors.js';
import {
  armCall,
  type CallLimits,
  cancelledAlready,
  closedError,
  loadTimeoutError,
  STOPPED,
  type StopCode,
  stoppedError,
} from '../base/guard.js';
import { observeCall } from '../base/telemetry.js';
import type {
  CallOptions,
  CallReply,
  Isolation,
  Plugin,
  PluginAnswer,
  PluginTool,
  SandboxReport,
} from '../base/types.js';
import { Call, settle } from '../wire/calls.js';
import type { AnswerSite, Ready } from '../wire/decode.js';
import { Op } from '../wire/frames.js';
import { callerMeta } from '../wire/voice.js';
import {
  argsToJson,
  checkCallOptions,
  checkContextOptions,
  checkDirectory,
  checkToolName,
  configToJson,
  type ResolvedLoadOptions,
} from './checks.js';

/** The reply of a call awaited as a promise. */
function promised<T>(start: (reply: CallReply) => void): Promise<T> {
  return new Promise<T>((resolve, reject) =>
    start({ answered: resolve as (value: unknown) => void, failed: reject }),
  );
}

export abstract class HostedPlugin implements Plugin {
  abstract readonly isolation: Isolation;
  readonly instances = 1;
  readonly path: string;
  apiVersion = 0;
  usesContext = false;
  tools: readonly PluginTool[] = [];
  sandbox: SandboxReport | undefined = undefined;
  /** The JSON of the last successful `configure`, and the last working directory (replayed after a restart). */
  protected config: string | undefined;
  protected workingDir: string | undefined;
  /** Where answers come from, as messages name it; `plugin` is set once the name is known. */
  protected readonly site: AnswerSite & { plugin: string | undefined };
  readonly #defaults: CallLimits;
  readonly #logLimit: number;
  #closing: Promise<void> | undefined;

  constructor(path: string, options: Pick<ResolvedLoadOptions, 'timeoutMs' | 'logLimit' | 'maxAnswerBytes'>) {
    this.path = path;
    this.site = { path, plugin: undefined, maxAnswerBytes: options.maxAnswerBytes };
    this.#defaults = { timeoutMs: options.timeoutMs };
    this.#logLimit = options.logLimit;
  }

  /** The plugin's name, once loaded (empty before). */
  get name(): string {
    return this.site.plugin ?? '';
  }

  /** Calls made and not settled yet. */
  abstract get pending(): number;

  /** True once `close()` was called. */
  protected get closing(): boolean {
    return this.#closing !== undefined;
  }

  /** Hands a call to the instance (it runs after every call handed over before it). */
  protected abstract submit(call: Call): void;
  /** Stops a call early (its time limit passed, or it was cancelled): settle it with `error`, then clean up. */
  protected abstract stop(call: Call, error: PluginError): void;
  /** Starts the instance; resolves with what it said once the plugin is loaded. */
  protected abstract start(): Promise<Ready>;
  /** After the close was answered: what is left to release (the process, the thread). */
  protected abstract closed(): Promise<void>;
  /** Releases the instance after a failed load. */
  protected abstract abort(error: unknown): Promise<void>;

  /** Load, then configure, set the working directory and list the tools; closes again on any failure. */
  async open(configJson: string | undefined, workingDir: string | undefined): Promise<void> {
    try {
      const ready = await this.#limitLoad(this.start());
      this.apiVersion = ready.apiVersion;
      this.usesContext = ready.context;
      this.site.plugin = ready.name;
      if (configJson !== undefined) await this.#configure(configJson);
      if (workingDir !== undefined) await this.setWorkingDir(workingDir);
      this.tools = Object.freeze(await this.listTools());
    } catch (error) {
      await this.abort(error);
      throw error;
    }
  }

  /** Loading (dlopen, create, name) gets the same time limit as a call, when there is one. */
  #limitLoad<T>(loading: Promise<T>): Promise<T> {
    const ms = this.#defaults.timeoutMs;
    if (ms <= 0) return loading;
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(loadTimeoutError(this.path, ms)), ms);
    });
    return Promise.race([loading, limit]).finally(() => clearTimeout(timer));
  }

  execute(tool: string, args: unknown, options?: CallOptions): Promise<PluginAnswer> {
    return promised((reply) => this.call(tool, args, reply, options));
  }

  call(tool: string, args: unknown, answer: CallReply<PluginAnswer>, options?: CallOptions): void {
    const reply = observeCall(this, String(tool), answer);
    let name: string;
    let json: string;
    let limits: CallLimits;
    let call: Call;
    try {
      name = checkToolName(tool);
      json = argsToJson(args);
      limits = checkCallOptions(options, this.#defaults);
      call = this.usesContext
        ? this.#withContext(reply, name, json, options)
        : new Call(Op.execute, reply, name, name, json);
    } catch (error) {
      reply.failed(error as Error);
      return;
    }
    this.#run(call, limits);
  }

  /** An execute through the plugin context: the caller's metadata goes along, what the call says comes back. */
  #withContext(
    reply: CallReply<PluginAnswer>,
    name: string,
    json: string,
    options: CallOptions | undefined,
  ): Call {
    const { voice, caller } = checkContextOptions(options);
    const call = new Call(Op.executeWithContext, reply, name, name, json, callerMeta(caller, this.#logLimit));
    call.voice = voice;
    return call;
  }

  listTools(): Promise<PluginTool[]> {
    return promised((reply) => this.#run(new Call(Op.listTools, reply), this.#defaults));
  }

  async configure(config: unknown): Promise<void> {
    await this.#configure(configToJson(config));
  }

  async #configure(json: string): Promise<void> {
    await promised((reply) => this.#run(new Call(Op.configure, reply, undefined, json), this.#defaults));
    this.config = json;
  }

  async setWorkingDir(path: string): Promise<void> {
    const dir = checkDirectory(path, 'working directory');
    await promised((reply) => this.#run(new Call(Op.setWorkingDir, reply, undefined, dir), this.#defaults));
    this.workingDir = dir;
  }

  /** Queued behind every earlier call: the instance destroys the plugin and unloads it. Idempotent. */
  close(): Promise<void> {
    if (this.#closing === undefined) {
      const answered = promised<void>((reply) => this.#run(new Call(Op.close, reply), this.#defaults));
      this.#closing = answered.then(() => this.closed());
    }
    return this.#closing;
  }

  /** Refuses a call after close, or one cancelled before it started; otherwise hands it over and arms its limits. */
  #run(call: Call, limits: CallLimits): void {
    if (this.#closing !== undefined) {
      settle(call, closedError(this.#site(call)));
      return;
    }
    if (cancelledAlready(limits)) {
      settle(call, stoppedError(this.#site(call), 'ENTROPIC_ERROR_CANCELLED', STOPPED.cancelledEarly));
      return;
    }
    this.submit(call);
    const disarm = armCall(limits, (code, why) => this.#stopEarly(call, code, why));
    if (call.settled)
      disarm?.(); // the cancel hook fired at once
    else call.disarm = disarm;
  }

  #stopEarly(call: Call, code: StopCode, why: string): void {
    if (!call.settled) this.stop(call, stoppedError(this.#site(call), code, why));
  }

  #site(call: Call) {
    return { path: this.path, plugin: this.site.plugin, tool: call.tool };
  }
}

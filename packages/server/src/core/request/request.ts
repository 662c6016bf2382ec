/**
 * One request from the client while it is being served. It is also the handler context: one
 * object per request, its AbortController made only if a handler asks for the signal.
 */

import { ErrorCode, LocalError, McpError, toWireError } from '../errors.js';
import type { RequestOutcome } from '../extension-types.js';
import { clientExtension } from '../extensions/client.js';
import { runAfter } from '../extensions/hooks.js';
import type { Era, InputRequests, InputResults, PeerRequestOptions, RequestId } from '../handler-types.js';
import type { Batch, ConnectionCore, MethodContext, MethodRun, Served } from '../host.js';
import { isThenable, Later, type LaterListener } from '../later.js';
import { runChain } from '../middleware/chain.js';
import type { ClientContext } from '../protocol.js';
import type { Operation } from '../telemetry/operation.js';
import type { MessageContext } from '../transport.js';
import type {
  AuthInfo,
  CreateMessageParams,
  CreateMessageResult,
  ElicitResult,
  JsonSchema,
  LogLevel,
  Root,
} from '../types.js';

let elicitationCounter = 0;

export class RequestState implements MethodContext, Served, LaterListener {
  readonly era: Era = 'legacy';
  readonly round: number = 1;
  finished = false;
  started = false;
  deadline = 0;
  slot = -1;
  /** The request's telemetry (span, duration), when an OpenTelemetry SDK is registered. */
  op: Operation | undefined = undefined;
  beforeInput: (() => void) | undefined = undefined;
  private controller: AbortController | undefined;
  private aborted = false;
  private abortReason: unknown;
  private abortHook: (() => void) | undefined;
  private lastProgress = Number.NEGATIVE_INFINITY;
  private bag: Record<string, unknown> | undefined;

  constructor(
    /** Its connection; after a hand-over, the task standing in for it. */
    public session: ConnectionCore,
    readonly requestId: RequestId,
    readonly method: string,
    /** What was asked; middleware may replace it before the method runs. */
    public params: Record<string, unknown> | undefined,
    readonly context: MessageContext | undefined,
    readonly client: ClientContext,
    readonly run: MethodRun,
    readonly batch: Batch | undefined,
  ) {}

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.abortReason);
    }
    return this.controller.signal;
  }

  get protocolVersion(): string {
    return this.client.protocolVersion;
  }

  onAbort(hook: () => void): void {
    if (this.aborted) hook();
    else if (!this.finished) this.abortHook = hook;
  }

  get sessionId(): string | undefined {
    return this.session.sessionId;
  }

  get auth(): AuthInfo | undefined {
    return this.context?.auth as AuthInfo | undefined;
  }

  get principal(): string | undefined {
    return this.context?.principal;
  }

  clientExtension(id: string): Record<string, unknown> | undefined {
    return clientExtension(this.client, this.params, id);
  }

  /** The tool a tools/call names, as its params say now. */
  get tool(): string | undefined {
    const name = this.method === 'tools/call' ? this.params?.name : undefined;
    return typeof name === 'string' ? name : undefined;
  }

  /** What middleware leaves for the layers inside it. */
  get state(): Record<string, unknown> {
    if (this.bag === undefined) this.bag = {};
    return this.bag;
  }

  /** Run the method now (called directly or by the scheduler when a slot frees), inside the middleware. */
  start(): void {
    this.started = true;
    const layers = this.session.server.extensions.layers;
    let out: unknown;
    try {
      if (layers.length === 0) out = this.op === undefined ? this.run(this) : this.op.run(this.run, this);
      else {
        const chain = (req: RequestState) => runChain(layers, req, req.run);
        out = this.op === undefined ? chain(this) : this.op.run(chain, this);
      }
    } catch (error) {
      this.fail(error);
      return;
    }
    if (out instanceof Later) out.listen(this);
    else if (isThenable(out)) {
      out.then(
        (value) => this.succeed(value),
        (error) => this.fail(error),
      );
    } else {
      this.succeed(out);
    }
  }

  /** The method answered through a `Later`. */
  onSettled(ok: boolean, value: unknown): void {
    if (ok) this.succeed(value);
    else this.fail(value);
  }

  succeed(result: unknown): void {
    if (!this.finish()) return;
    this.session.reply(this, { jsonrpc: '2.0', id: this.requestId, result });
    this.ended({ kind: 'result', result });
  }

  fail(error: unknown): void {
    if (!this.finish()) return;
    const wire = toWireError(error, this.method);
    this.session.reply(this, { jsonrpc: '2.0', id: this.requestId, error: wire });
    this.ended({ kind: 'error', error: wire });
  }

  /** Tell the `after` hooks how this request ended. */
  private ended(outcome: RequestOutcome): void {
    const hooks = this.session.server.extensions.hooks;
    if (hooks.length > 0) runAfter(hooks, this, outcome);
  }

  /** 2026-07-28 rounds that ask for input say so; a 2025 request never ends a round that way. */
  get awaitingInput(): boolean {
    return false;
  }

  handOver(to: ConnectionCore): void {
    const from = this.session;
    this.session = to;
    from.settled(this);
  }

  /** The handler ran too long: abort it and answer -32001. */
  timeout(): void {
    const error = new McpError(
      ErrorCode.RequestTimeout,
      `${this.method} timed out after ${this.session.server.options.handlerTimeoutMs} ms`,
    );
    this.abort(error);
    this.fail(error);
  }

  /** The client cancelled: abort, free the slot, and send nothing. */
  cancel(reason: unknown): void {
    if (!this.abandon(reason, 'cancelled')) return;
    this.batch?.skip();
    this.ended({ kind: 'abandoned', reason });
  }

  /** The connection closed: abort and send nothing. */
  drop(): void {
    const reason = new LocalError('CLOSED', 'The connection closed');
    if (this.abandon(reason, 'connection_closed')) this.ended({ kind: 'abandoned', reason });
  }

  /**
   * Finish without an answer, then abort the handler: an outcome it settles while being aborted (a plugin
   * call fails at once when cancelled) finds the request finished and is dropped. False when it already was.
   */
  private abandon(reason: unknown, why: 'cancelled' | 'connection_closed'): boolean {
    const hook = this.abortHook;
    if (!this.finish()) {
      this.abort(reason);
      return false;
    }
    this.abortHook = hook;
    this.abort(reason);
    this.abortHook = undefined;
    this.op?.abandon(why, this.protocolVersion);
    return true;
  }

  private abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.abortReason = reason;
    this.controller?.abort(reason);
    this.abortHook?.();
  }

  /** Mark answered; true for the first caller only. Frees the slot and the in-flight entry. */
  private finish(): boolean {
    if (this.finished) return false;
    this.finished = true;
    // A finished request lets go of its abort hook: the hook's closure holds the handler's whole call (its
    // promises and buffers), and a request context that is still referenced for a moment after it answered
    // would carry all of that through the next young-generation collection (measured: twice the scavenge time
    // for plugin calls at 64 in flight).
    this.abortHook = undefined;
    this.session.settled(this);
    return true;
  }

  // HandlerContext

  progress(done: number, total?: number, message?: string): void {
    const token = (this.params?._meta as Record<string, unknown> | undefined)?.progressToken;
    // A task takes progress without a token too: it becomes the task's status message.
    if (token === undefined && this.session.taskId === undefined) return;
    if (this.finished || !(done > this.lastProgress)) return;
    this.lastProgress = done;
    const params: Record<string, unknown> = { progressToken: token, progress: done };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    this.session.send({ jsonrpc: '2.0', method: 'notifications/progress', params }, this.requestId);
  }

  header(name: string): string | undefined {
    const value = this.context?.headers?.[name.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  log(level: LogLevel, data: unknown, logger?: string): void {
    this.session.logFor(level, logger, data, this.requestId);
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.session.send(
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params },
      this.requestId,
    );
  }

  request<T = unknown>(
    method: string,
    params?: Record<string, unknown>,
    options?: PeerRequestOptions,
  ): Promise<T> {
    return this.session.requestFor<T>(method, params, options, this);
  }

  elicit(message: string, requestedSchema: JsonSchema, options?: PeerRequestOptions): Promise<ElicitResult> {
    const cap = this.client.capabilities.elicitation;
    if (!cap || (cap.form === undefined && cap.url !== undefined)) {
      return Promise.reject(
        new LocalError('CLIENT_CAPABILITY_MISSING', 'The client does not support form elicitation'),
      );
    }
    return this.request<ElicitResult>(
      'elicitation/create',
      { mode: 'form', message, requestedSchema },
      options,
    );
  }

  elicitUrl(
    message: string,
    url: string,
    elicitationId?: string,
    options?: PeerRequestOptions,
  ): Promise<ElicitResult> {
    if (!this.client.capabilities.elicitation?.url) {
      return Promise.reject(
        new LocalError(
          'CLIENT_CAPABILITY_MISSING',
          'The client does not support URL elicitation (elicitation.url)',
        ),
      );
    }
    const id = elicitationId ?? `el-${Date.now().toString(36)}-${(++elicitationCounter).toString(36)}`;
    return this.request<ElicitResult>(
      'elicitation/create',
      { mode: 'url', message, url, elicitationId: id },
      options,
    );
  }

  sample(params: CreateMessageParams, options?: PeerRequestOptions): Promise<CreateMessageResult> {
    const sampling = this.client.capabilities.sampling;
    if (!sampling) {
      return Promise.reject(
        new LocalError('CLIENT_CAPABILITY_MISSING', 'The client does not support sampling'),
      );
    }
    if ((params.tools !== undefined || params.toolChoice !== undefined) && !sampling.tools) {
      return Promise.reject(
        new LocalError(
          'CLIENT_CAPABILITY_MISSING',
          'The client does not support tools in sampling (sampling.tools)',
        ),
      );
    }
    return this.request<CreateMessageResult>('sampling/createMessage', params, options);
  }

  async ask<T extends InputRequests>(requests: T, options?: PeerRequestOptions): Promise<InputResults<T>> {
    const keys = Object.keys(requests);
    const answers = await Promise.all(
      keys.map((key) => {
        const r = requests[key] as InputRequests[string];
        if (r.method === 'sampling/createMessage') return this.sample(r.params, options);
        if (r.method === 'roots/list') return this.listRoots(options).then((roots) => ({ roots }));
        const p = r.params;
        if (p.mode === 'url') return this.elicitUrl(p.message, p.url ?? '', p.elicitationId, options);
        return this.elicit(p.message, p.requestedSchema ?? { type: 'object' }, options);
      }),
    );
    const out: Record<string, unknown> = {};
    keys.forEach((key, i) => {
      out[key] = answers[i];
    });
    return out as InputResults<T>;
  }

  async listRoots(options?: PeerRequestOptions): Promise<Root[]> {
    if (!this.client.capabilities.roots) {
      throw new LocalError('CLIENT_CAPABILITY_MISSING', 'The client does not support roots');
    }
    const result = await this.request<{ roots?: Root[] }>('roots/list', undefined, options);
    return Array.isArray(result?.roots) ? result.roots : [];
  }
}

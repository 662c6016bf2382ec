/**
 * A request served in the 2026-07-28 era. The same handler context as a 2025 request, except that
 * input from the client (elicitation, sampling, roots) comes through multi-round-trip requests,
 * log messages follow the request's own `logLevel`, and every result is a modern result.
 */

import { LocalError } from '../errors.js';
import type { Era, InputRequest, InputRequests, InputResults, PeerRequestOptions } from '../handler-types.js';
import { levelRank, redact } from '../logging.js';
import type { ModernClient } from '../modern/envelope.js';
import { INPUT_METHODS, InputBroker, InputRequired, readInputResponses } from '../modern/input.js';
import { completeResult, modernError, withServerInfo } from '../modern/results.js';
import type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitResult,
  JsonSchema,
  LogLevel,
  Root,
} from '../types.js';
import { RequestState } from './request.js';

export class ModernRequest extends RequestState {
  override readonly era: Era = 'modern';
  override round = 1;
  private broker: InputBroker | undefined;
  private carried: Record<string, unknown> = {};
  /** With middleware: what the sealed state is bound to, the params as the client sent them. */
  private bound: unknown;

  declare readonly client: ModernClient;

  /** Open the echoed requestState (if any), then run the method. */
  override start(): void {
    this.started = true;
    let ready: Promise<void> | undefined;
    try {
      ready = this.prepare();
    } catch (error) {
      this.fail(error);
      return;
    }
    if (ready === undefined) super.start();
    else
      ready.then(
        () => {
          if (!this.finished) super.start();
        },
        (error) => this.fail(error),
      );
  }

  private prepare(): Promise<void> | undefined {
    const caps = this.client.capabilities;
    if (!INPUT_METHODS.has(this.method)) {
      this.broker = new InputBroker(this.method, caps, {});
      return undefined;
    }
    // Middleware may rewrite the params (even in place); the client's next round sends them as they came.
    if (this.session.server.extensions.layers.length > 0)
      this.bound = JSON.parse(JSON.stringify(salient(this.method, this.params)));
    const responses = readInputResponses(this.params?.inputResponses);
    const token = this.params?.requestState;
    if (token === undefined) {
      // A first round: answers the client sent ahead count for the questions the handler asks (each
      // checked against its question); keys it never asks are ignored, as the specification wants.
      this.broker = new InputBroker(this.method, caps, responses);
      return undefined;
    }
    const sealer = this.session.server.sealer;
    return sealer.open(token, this.method, this.salient(), this).then((state) => {
      this.round = state.round;
      this.carried = state.answers;
      const answers: Record<string, unknown> = { ...state.answers };
      for (const key of state.asked) if (Object.hasOwn(responses, key)) answers[key] = responses[key];
      this.broker = new InputBroker(this.method, caps, answers);
    });
  }

  private salient(): unknown {
    return this.bound ?? salient(this.method, this.params);
  }

  override get awaitingInput(): boolean {
    return this.broker !== undefined && this.broker.pending.size > 0;
  }

  override succeed(result: unknown): void {
    // Handed to a task: the outcome is the task's, as it is (the task's views shape it).
    if (this.session.taskId !== undefined) super.succeed(result);
    else if (this.awaitingInput) this.inputRequired();
    else super.succeed(completeResult(this.session.server, this.method, result));
  }

  override fail(error: unknown): void {
    if (this.session.taskId !== undefined) super.fail(error);
    else if (error instanceof InputRequired || (this.awaitingInput && !(error instanceof LocalError))) {
      this.inputRequired();
    } else super.fail(modernError(error));
  }

  /** End this round with `input_required`: the questions still open and the sealed state. */
  private inputRequired(): void {
    const broker = this.broker;
    if (this.finished || broker === undefined) return;
    const server = this.session.server;
    const asked = [...broker.pending.keys()];
    const answers = { ...this.carried, ...broker.used };
    const inputRequests: Record<string, InputRequest> = {};
    for (const [key, request] of broker.pending) inputRequests[key] = request;
    server.sealer
      .seal(this.method, this.salient(), this, {
        round: this.round + 1,
        answers,
        asked,
      })
      .then(
        (requestState) =>
          super.succeed({
            resultType: 'input_required',
            inputRequests,
            requestState,
            _meta: withServerInfo(server, undefined),
          }),
        (error) => super.fail(error),
      );
  }

  // Input from the client

  private input(request: InputRequest, options: PeerRequestOptions | undefined): Promise<unknown> {
    const decide = this.beforeInput;
    this.beforeInput = undefined;
    decide?.();
    // Once a task holds the request, questions wait for tasks/update instead of ending a round.
    if (this.session.input !== undefined) return this.session.input(request, options?.key);
    return (this.broker as InputBroker).ask(request, options?.key);
  }

  override elicit(
    message: string,
    requestedSchema: JsonSchema,
    options?: PeerRequestOptions,
  ): Promise<ElicitResult> {
    return this.input(
      { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema } },
      options,
    ) as Promise<ElicitResult>;
  }

  override elicitUrl(
    message: string,
    url: string,
    _id?: string,
    options?: PeerRequestOptions,
  ): Promise<ElicitResult> {
    return this.input(
      { method: 'elicitation/create', params: { mode: 'url', message, url } },
      options,
    ) as Promise<ElicitResult>;
  }

  override sample(params: CreateMessageParams, options?: PeerRequestOptions): Promise<CreateMessageResult> {
    return this.input({ method: 'sampling/createMessage', params }, options) as Promise<CreateMessageResult>;
  }

  override async listRoots(options?: PeerRequestOptions): Promise<Root[]> {
    const result = (await this.input({ method: 'roots/list', params: {} }, options)) as { roots: Root[] };
    return result.roots;
  }

  override ask<T extends InputRequests>(requests: T, options?: PeerRequestOptions): Promise<InputResults<T>> {
    const keys = Object.keys(requests);
    const asks = keys.map((key) => this.input(requests[key] as InputRequest, { ...options, key }));
    return Promise.all(asks).then((answers) => {
      const out: Record<string, unknown> = {};
      keys.forEach((key, i) => {
        out[key] = answers[i];
      });
      return out as InputResults<T>;
    });
  }

  override request<T = unknown>(method: string): Promise<T> {
    return Promise.reject(
      new LocalError(
        'CLIENT_CAPABILITY_MISSING',
        `ctx.request(${method}) is not available in protocol 2026-07-28: servers do not send requests; ask with ctx.elicit, ctx.sample, ctx.listRoots or ctx.ask`,
      ),
    );
  }

  /** `notifications/message` on this request's stream, only when its `_meta` set a log level. */
  override log(level: LogLevel, data: unknown, logger?: string): void {
    const floor = this.client.logLevel;
    const server = this.session.server;
    if (floor === undefined || !server.options.logging || levelRank(level) < levelRank(floor)) return;
    const params: Record<string, unknown> = { level, data: server.options.redactLogs ? redact(data) : data };
    if (logger !== undefined) params.logger = logger;
    this.session.send({ jsonrpc: '2.0', method: 'notifications/message', params }, this.requestId);
  }
}

/** The parts of a request its sealed state is bound to. */
function salient(method: string, params: Record<string, unknown> | undefined): unknown {
  if (method === 'resources/read') return { uri: params?.uri };
  return { name: params?.name, arguments: params?.arguments ?? {} };
}

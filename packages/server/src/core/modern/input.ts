/**
 * Input from the client in the 2026-07-28 era (multi-round-trip requests): answers come from the
 * retry's `inputResponses` (and, memoised, from earlier rounds through the sealed `requestState`);
 * what is still missing is collected and answered as one `input_required` result.
 */

import { ErrorCode, McpError, McpServerError } from '../errors.js';
import type { InputRequest } from '../handler-types.js';
import type { ClientCapabilities } from '../types.js';

/** Thrown (as a rejection) to a handler that asked for input the client has not given yet. */
export class InputRequired extends McpServerError<'INPUT_REQUIRED'> {
  override readonly name = 'InputRequired';
  constructor() {
    super(
      'INPUT_REQUIRED',
      'The client has not answered this input request yet; the request ends with input_required',
    );
  }
}

/** Methods whose results may be `input_required`. */
export const INPUT_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

export class InputBroker {
  /** Questions asked in this round that have no answer yet, in the order asked. */
  readonly pending = new Map<string, InputRequest>();
  /** Answers used in this round, by key (memoised into the next state). */
  readonly used: Record<string, unknown> = {};
  private counter = 0;

  constructor(
    private readonly method: string,
    private readonly capabilities: ClientCapabilities,
    private readonly answers: Record<string, unknown>,
  ) {}

  /** The answer to `request` under `key`, or a rejection that ends the round with input_required. */
  ask(request: InputRequest, key?: string): Promise<unknown> {
    const k = key ?? `input-${++this.counter}`;
    if (!INPUT_METHODS.has(this.method)) {
      return Promise.reject(
        new McpError(
          ErrorCode.InternalError,
          `Internal error in ${this.method}: in protocol 2026-07-28 only tools/call, prompts/get and resources/read may ask the client for input`,
        ),
      );
    }
    const missing = missingCapability(request, this.capabilities);
    if (missing !== undefined) {
      return Promise.reject(
        new McpError(
          ErrorCode.MissingRequiredClientCapability,
          `Missing required client capability: ${Object.keys(missing)[0]} (this request needs it and its _meta clientCapabilities do not declare it)`,
          { requiredCapabilities: missing },
        ),
      );
    }
    if (Object.hasOwn(this.answers, k)) {
      const answer = this.answers[k];
      const problem = checkAnswer(request, answer);
      if (problem !== undefined) {
        return Promise.reject(
          new McpError(ErrorCode.InvalidParams, `Invalid params: inputResponses["${k}"] ${problem}`, {
            pointer: `/params/inputResponses/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`,
          }),
        );
      }
      this.used[k] = answer;
      return Promise.resolve(answer);
    }
    if (this.pending.has(k)) return Promise.reject(new InputRequired());
    this.pending.set(k, request);
    return Promise.reject(new InputRequired());
  }
}

/** The capability an input request needs that the client did not declare, as a capabilities object. */
export function missingCapability(
  request: InputRequest,
  caps: ClientCapabilities,
): ClientCapabilities | undefined {
  if (request.method === 'sampling/createMessage') {
    if (!caps.sampling) return { sampling: {} };
    const p = request.params;
    if ((p.tools !== undefined || p.toolChoice !== undefined) && !caps.sampling.tools) {
      return { sampling: { tools: {} } };
    }
    return undefined;
  }
  if (request.method === 'roots/list') return caps.roots ? undefined : { roots: {} };
  const e = caps.elicitation;
  if (request.params.mode === 'url') return e?.url ? undefined : { elicitation: { url: {} } };
  return e && !(e.form === undefined && e.url !== undefined) ? undefined : { elicitation: { form: {} } };
}

/** Why an answer does not fit its question, or undefined. */
export function checkAnswer(request: InputRequest, answer: unknown): string | undefined {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return 'must be an object';
  const a = answer as Record<string, unknown>;
  if (request.method === 'elicitation/create') {
    if (a.action !== 'accept' && a.action !== 'decline' && a.action !== 'cancel') {
      return 'must be an elicitation result: action "accept", "decline" or "cancel"';
    }
    if (a.content !== undefined && (typeof a.content !== 'object' || a.content === null)) {
      return 'must carry content as an object';
    }
    return undefined;
  }
  if (request.method === 'sampling/createMessage') {
    if (typeof a.role !== 'string' || typeof a.content !== 'object' || a.content === null) {
      return 'must be a sampling result with role and content';
    }
    return undefined;
  }
  return Array.isArray(a.roots) ? undefined : 'must be a roots result with a roots array';
}

/** Check `inputResponses` as a whole: an object of objects (-32602 otherwise). */
export function readInputResponses(value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new McpError(
      ErrorCode.InvalidParams,
      'Invalid params: inputResponses must be an object mapping each input request key to the client result',
      { pointer: '/params/inputResponses' },
    );
  }
  return value as Record<string, unknown>;
}

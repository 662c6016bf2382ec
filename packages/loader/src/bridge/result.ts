/** How plugin answers and failures become `tools/call` results. */
import { basename } from 'node:path';
import { Later, PreparedJson, RawJson } from '@entropic-mcp/server';
import { resultJsonOf, resultLiteralOf } from '../base/answer-text.js';
import { PluginError } from '../base/errors.js';
import type { CallReply, PluginAnswer } from '../base/types.js';
import type { BridgeTextContent, BridgeToolResult } from './types.js';

/**
 * The `_meta` key carrying a plugin answer's directives to the client (a prefixed key, as the 2025-11-25
 * specification asks of implementation-defined metadata). Always present on a plugin tool's success, `[]`
 * when the plugin asked for nothing.
 */
export const DIRECTIVES_META_KEY = 'io.entropic/directives';
/** The `_meta` key describing a failed plugin call: `{ plugin, tool, code, signal? }`. */
export const ERROR_META_KEY = 'io.entropic/error';
/** The `_meta` key on each plugin tool's definition: `{ plugin, tool }`. */
export const PLUGIN_META_KEY = 'io.entropic/plugin';

/** A plugin's success: its `result` as one text block (`text` stands for it), its directives in `_meta`. */
function successResult(answer: PluginAnswer, text: string): BridgeToolResult {
  return {
    content: [{ type: 'text', text }],
    _meta: { [DIRECTIVES_META_KEY]: answer.directives },
  };
}

/** The `_meta` of every success without directives on our own server, which only reads it: made once. */
const NO_DIRECTIVES_META = Object.freeze({ [DIRECTIVES_META_KEY]: Object.freeze([]) });

/** The structured result a call attached through its plugin context, beside the text. */
function structured(result: BridgeToolResult, answer: PluginAnswer): BridgeToolResult {
  return answer.structured === undefined ? result : { ...result, structuredContent: answer.structured };
}

export function answerToResult(answer: PluginAnswer): BridgeToolResult {
  return structured(successResult(answer, answer.result), answer);
}

/** The JSON text of the `_meta` of a success without directives. */
const NO_DIRECTIVES_JSON = JSON.stringify(NO_DIRECTIVES_META);
const RESULT_KEYS = ['content', '_meta'];
const BLOCK_KEYS = ['type', 'text'];

/** True when `value`'s own enumerable keys are `keys`, in that order (what JSON.stringify would write). */
function hasKeys(value: object, keys: readonly string[]): boolean {
  const own = Object.keys(value);
  if (own.length !== keys.length) return false;
  for (let i = 0; i < own.length; i++) if (own[i] !== keys[i]) return false;
  return true;
}

/**
 * The usual success, one text block and no directives, as our own server writes it: it keeps its JSON text
 * ready (the text's JSON literal, when the plugin's answer carried one, between a fixed head and tail), so the
 * reply is written without serialising the result. Should anything change its fields, or add one, after it was
 * made (an `after` hook), `jsonText` says so and the fields are serialised as usual.
 */
class PluginSuccess extends PreparedJson implements BridgeToolResult {
  readonly content: [BridgeTextContent];
  readonly _meta: Record<string, unknown>;
  readonly #block: BridgeTextContent;
  readonly #text: string;
  /** The JSON literal of the text, when the answer came with one (a long result, or one that needs no escaping). */
  readonly #literal: string | undefined;

  constructor(text: string, literal: string | undefined) {
    super();
    const block: BridgeTextContent = { type: 'text', text };
    this.content = [block];
    this._meta = NO_DIRECTIVES_META;
    this.#block = block;
    this.#text = text;
    this.#literal = literal;
  }

  jsonText(): string | undefined {
    const content = this.#contentText();
    return content === undefined ? undefined : `{"content":${content},"_meta":${NO_DIRECTIVES_JSON}}`;
  }

  /** The same, field by field (a 2026-07-28 result is a copy with fields added, written from these). */
  override fieldTexts(): Readonly<Record<string, string>> | undefined {
    const content = this.#contentText();
    return content === undefined ? undefined : { content, _meta: NO_DIRECTIVES_JSON };
  }

  /** The JSON text of `content`, while no field was changed, replaced or added since it was made. */
  #contentText(): string | undefined {
    const content = this.content;
    const block = this.#block;
    if (content.length !== 1 || content[0] !== block || block.text !== this.#text || block.type !== 'text')
      return undefined;
    if (this._meta !== NO_DIRECTIVES_META || !hasKeys(this, RESULT_KEYS) || !hasKeys(block, BLOCK_KEYS))
      return undefined;
    return `[{"type":"text","text":${this.#literal ?? JSON.stringify(this.#text)}}]`;
  }
}

/**
 * The same result for our own server: the `result` text the plugin wrote as JSON goes to the client as it is,
 * instead of being serialised again: inside the prepared text of the usual success (`PluginSuccess`), else as
 * a `RawJson` text.
 */
export function answerToRawResult(answer: PluginAnswer): BridgeToolResult {
  if (answer.directives.length === 0 && answer.structured === undefined)
    return new PluginSuccess(answer.result, resultLiteralOf(answer));
  const json = resultJsonOf(answer);
  // Typed as the string it stands for: the server writes it as that string's JSON, and only our server gets it.
  const text = json === undefined ? answer.result : (new RawJson(json) as unknown as string);
  if (answer.directives.length > 0) return structured(successResult(answer, text), answer);
  return structured({ content: [{ type: 'text', text }], _meta: NO_DIRECTIVES_META }, answer);
}

/** The plugin and tool a mounted tool calls, as its failures name them. */
export interface ToolSite {
  readonly plugin: string;
  readonly tool: string;
}

/**
 * One plugin call made for our own server, without a promise: the server waits on this `Later`, and the
 * plugin's answer (or failure) settles it with the tool result, in the turn the answer came in.
 */
export class PluginToolCall extends Later<BridgeToolResult> implements CallReply<PluginAnswer> {
  constructor(private readonly site: ToolSite) {
    super();
  }

  answered(answer: PluginAnswer): void {
    this.resolve(answerToRawResult(answer));
  }

  failed(error: Error): void {
    this.resolve(errorToResult(error, this.site.plugin, this.site.tool));
  }
}

/** What a client sees names the plugin's file, never where it lives on the server. */
function withoutPath(message: string, path: string | undefined): string {
  return path === undefined || path === '' ? message : message.split(path).join(basename(path));
}

function describeFailure(error: unknown): { code: string; message: string; signal?: string } {
  if (error instanceof PluginError) {
    const failure: { code: string; message: string; signal?: string } = {
      code: error.code,
      message: withoutPath(error.message, error.path),
    };
    if (error.signal !== undefined) failure.signal = error.signal;
    return failure;
  }
  if (error instanceof Error) {
    const code: unknown = (error as Error & { code?: unknown }).code;
    return { code: typeof code === 'string' ? code : error.name, message: error.message };
  }
  return { code: 'Error', message: String(error) };
}

/** A failed call as a tool-level error naming the plugin, the tool and what went wrong. */
export function errorToResult(error: unknown, plugin: string, tool: string): BridgeToolResult {
  const failure = describeFailure(error);
  const how = failure.signal !== undefined ? `, ${failure.signal}` : '';
  return {
    content: [
      {
        type: 'text',
        text: `plugin "${plugin}" failed on tool "${tool}" [${failure.code}${how}]: ${failure.message}`,
      },
    ],
    isError: true,
    _meta: { [ERROR_META_KEY]: { plugin, tool, ...failure } },
  };
}

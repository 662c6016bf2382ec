/**
 * What an answer frame means for the call it answers, the same in both hosting modes: an execute's validated
 * answer, a list_tools text, the code of configure / set_working_dir, the ready frame of a load. A frame that
 * does not fit its call becomes the PluginError it is worth, named after the plugin and the tool.
 */
import { plainAnswer } from '../base/answer-text.js';
import { describePlugin, HOST_ERROR_CODES, PluginError } from '../base/errors.js';
import { loadRefusal } from '../base/guard.js';
import type { PluginAnswer, PluginTool } from '../base/types.js';
import { parseAnswer, parseToolList } from '../base/validate.js';
import { Feature, Op, Status } from './frames.js';

/** Where an answer came from, as messages name it. */
export interface AnswerSite {
  readonly path: string;
  /** The plugin's name once loaded, else undefined. */
  readonly plugin: string | undefined;
  /** The longest `execute` answer taken, in bytes (LoadOptions.maxAnswerBytes); 0 or absent: no limit. */
  readonly maxAnswerBytes?: number;
}

/** What the instance said when it loaded the plugin. */
export interface Ready {
  readonly name: string;
  readonly apiVersion: number;
  /** The plugin defines the plugin context's entry point (and the instance knows how to call it). */
  readonly context: boolean;
}

function failure(site: AnswerSite, buf: Buffer, start: number, end: number, tool?: string): PluginError {
  const value = buf.readInt32LE(start);
  const text = buf.toString('utf8', start + 4, end);
  const nul = text.indexOf('\0');
  const message = nul < 0 ? text : text.slice(nul + 1);
  return PluginError.fromValue(value, message, { path: site.path, plugin: site.plugin, tool });
}

/** What the instance reported (a failed frame), or that the frame does not fit its call. */
function unexpected(
  site: AnswerSite,
  status: number,
  buf: Buffer,
  start: number,
  end: number,
  tool?: string,
): PluginError {
  if (status === Status.failed && end - start >= 4) return failure(site, buf, start, end, tool);
  return new PluginError(
    HOST_ERROR_CODES.unavailable,
    `${describePlugin(site.path, site.plugin)}: the plugin instance answered with an unexpected frame (status ${status})`,
    { path: site.path, plugin: site.plugin },
  );
}

/** The answer of an execute of `tool`; throws ENTROPIC_PLUGIN_BAD_ANSWER (or what the instance reported). */
export function decodeExecute(
  site: AnswerSite,
  tool: string,
  status: number,
  buf: Buffer,
  start: number,
  end: number,
): PluginAnswer {
  const max = site.maxAnswerBytes;
  if (max !== undefined && max > 0 && end - start > max) throw answerTooLarge(site, tool, end - start, max);
  if (status === Status.plain) return plainAnswer(buf.toString('utf8', start, end));
  const ctx = { path: site.path, plugin: site.plugin, tool };
  if (status === Status.string) return parseAnswer(buf.toString('utf8', start, end), ctx);
  if (status === Status.null) return parseAnswer(null, ctx);
  throw unexpected(site, status, buf, start, end, tool);
}

/** An answer over LoadOptions.maxAnswerBytes: refused before it is decoded, so it costs no parse or copy. */
export function answerTooLarge(site: AnswerSite, tool: string, bytes: number, max: number): PluginError {
  return new PluginError(
    HOST_ERROR_CODES.badAnswer,
    `${describePlugin(site.path, site.plugin)}: execute of tool "${tool}" answered ${bytes} bytes, more than the ${max} allowed (maxAnswerBytes)`,
    { path: site.path, plugin: site.plugin, tool },
  );
}

/** An answer with the structured result its call attached (JSON text of an object), or a BAD_ANSWER error. */
export function withStructured(
  site: AnswerSite,
  tool: string,
  answer: PluginAnswer,
  json: string,
): PluginAnswer {
  let structured: unknown;
  try {
    structured = JSON.parse(json);
  } catch (error) {
    throw badStructured(site, tool, `is not JSON (${(error as Error).message})`);
  }
  if (typeof structured !== 'object' || structured === null || Array.isArray(structured)) {
    throw badStructured(
      site,
      tool,
      `is not a JSON object (${Array.isArray(structured) ? 'an array' : String(structured)})`,
    );
  }
  return { ...answer, structured: structured as Record<string, unknown> };
}

function badStructured(site: AnswerSite, tool: string, why: string): PluginError {
  return new PluginError(
    HOST_ERROR_CODES.badAnswer,
    `${describePlugin(site.path, site.plugin)}: the structured result of tool "${tool}" ${why}`,
    { path: site.path, plugin: site.plugin, tool },
  );
}

/** The tools of a list_tools answer, validated. */
export function decodeToolList(
  site: AnswerSite,
  status: number,
  buf: Buffer,
  start: number,
  end: number,
): PluginTool[] {
  if (status === Status.string) return parseToolList(buf.toString('utf8', start, end), site);
  if (status === Status.null) return parseToolList(null, site);
  throw unexpected(site, status, buf, start, end);
}

/** Nothing for a zero code; a PluginError naming the entropic_error_t the plugin returned otherwise. */
export function decodeCode(
  site: AnswerSite,
  op: Op,
  status: number,
  buf: Buffer,
  start: number,
  end: number,
): void {
  if (status !== Status.code || end - start < 4) throw unexpected(site, status, buf, start, end);
  const value = buf.readInt32LE(start);
  if (value === 0) return;
  const code = PluginError.fromValue(value, '').code;
  throw PluginError.fromValue(
    value,
    `${describePlugin(site.path, site.plugin)}: entropic_mcp_server_${opName(op)}() returned ${code} (${value})`,
    { path: site.path, plugin: site.plugin },
  );
}

/** The first frame (id 0): the plugin loaded, or why it was refused (worded by the call guard). */
export function decodeReady(path: string, status: number, buf: Buffer, start: number, end: number): Ready {
  if (status === Status.ready && end - start >= 4) {
    // The name, then (from instances that know the plugin context) NUL and a u32 of feature bits.
    const nul = buf.indexOf(0, start + 4);
    const nameEnd = nul >= 0 && nul < end ? nul : end;
    const features = nameEnd + 5 <= end ? buf.readUInt32LE(nameEnd + 1) : 0;
    return {
      apiVersion: buf.readInt32LE(start),
      name: buf.toString('utf8', start + 4, nameEnd),
      context: (features & Feature.context) !== 0,
    };
  }
  if (status === Status.failed && end - start >= 4) {
    throw loadRefusal(failure({ path, plugin: undefined }, buf, start, end), path);
  }
  throw new PluginError(
    HOST_ERROR_CODES.unavailable,
    `${describePlugin(path)}: bad first frame from the instance`,
    {
      path,
    },
  );
}

/** The wait for an instance's first frame (id 0, ready or refused): `promise` settles once with what it said. */
export class ReadyWait {
  readonly promise: Promise<Ready>;
  #settle: { resolve(ready: Ready): void; reject(error: Error): void } | undefined;
  readonly #path: string;

  constructor(path: string) {
    this.#path = path;
    this.promise = new Promise<Ready>((resolve, reject) => {
      this.#settle = { resolve, reject };
    });
  }

  /** True until the first frame came or the wait failed. */
  get waiting(): boolean {
    return this.#settle !== undefined;
  }

  /** Settles the wait with a frame that is the first one (id 0, still awaited); false for any other frame. */
  take(id: number, status: number, buf: Buffer, start: number, end: number): boolean {
    const settle = this.#settle;
    if (id !== 0 || settle === undefined) return false;
    this.#settle = undefined;
    try {
      settle.resolve(decodeReady(this.#path, status, buf, start, end));
    } catch (error) {
      settle.reject(error as Error);
    }
    return true;
  }

  /** Fails the wait (the instance ended before its first frame); nothing once it settled. */
  fail(error: Error): void {
    const settle = this.#settle;
    this.#settle = undefined;
    settle?.reject(error);
  }
}

export function opName(op: Op): string {
  switch (op) {
    case Op.listTools:
      return 'list_tools';
    case Op.execute:
    case Op.executeWithContext:
      return 'execute';
    case Op.configure:
      return 'configure';
    case Op.setWorkingDir:
      return 'set_working_dir';
    default:
      return 'close';
  }
}

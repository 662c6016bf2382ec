/**
 * Checks the strings a plugin returns against the contract. Both hosting modes hand the raw text here;
 * a broken answer becomes a `PluginError` (`ENTROPIC_PLUGIN_BAD_ANSWER`) naming the plugin and the fault.
 */
import { directiveTypes } from './abi.js';
import { compactAnswer } from './answer-text.js';
import { describePlugin, HOST_ERROR_CODES, PluginError } from './errors.js';
import type { PluginAnswer, PluginDirective, PluginTool } from './types.js';

export interface AnswerContext {
  readonly path: string;
  readonly plugin?: string;
  readonly tool?: string;
}

function bad(ctx: AnswerContext, what: string, fault: string): PluginError {
  return new PluginError(
    HOST_ERROR_CODES.badAnswer,
    `${describePlugin(ctx.path, ctx.plugin)}: ${what} ${fault}`,
    {
      path: ctx.path,
      plugin: ctx.plugin,
      tool: ctx.tool,
    },
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function parse(ctx: AnswerContext, what: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const head = text.length > 60 ? `${text.slice(0, 60)}...` : text;
    throw bad(ctx, what, `is not valid JSON (${(error as Error).message}); it began ${JSON.stringify(head)}`);
  }
}

/** Validates the text of `list_tools`. NULL or an empty string reads as no tools. */
export function parseToolList(text: string | null, ctx: AnswerContext): PluginTool[] {
  const what = 'list_tools';
  if (text === null || text.trim() === '') return [];
  const value = parse(ctx, what, text);
  if (!Array.isArray(value)) throw bad(ctx, what, `returned ${kind(value)}, expected a JSON array of tools`);
  const seen = new Set<string>();
  return value.map((item, index) => {
    const at = `${what} entry ${index}`;
    if (!isObject(item)) throw bad(ctx, at, `is ${kind(item)}, expected an object`);
    const { name, description, inputSchema, outputSchema } = item;
    if (typeof name !== 'string' || name === '') throw bad(ctx, at, 'has no non-empty string "name"');
    const named = `${what} tool "${name}"`;
    if (seen.has(name)) throw bad(ctx, named, 'is listed twice');
    seen.add(name);
    if (description !== undefined && typeof description !== 'string') {
      throw bad(ctx, named, `has a "description" that is ${kind(description)}, expected a string`);
    }
    if (!isObject(inputSchema)) throw bad(ctx, named, `has an "inputSchema" that is ${kind(inputSchema)}`);
    if (inputSchema.type !== 'object') {
      throw bad(
        ctx,
        named,
        `has an "inputSchema" whose "type" is ${JSON.stringify(inputSchema.type)}, expected "object"`,
      );
    }
    if (outputSchema !== undefined && !isObject(outputSchema)) {
      throw bad(ctx, named, `has an "outputSchema" that is ${kind(outputSchema)}, expected an object`);
    }
    const tool: PluginTool =
      description === undefined ? { name, inputSchema } : { name, description, inputSchema };
    return outputSchema === undefined ? tool : { ...tool, outputSchema };
  });
}

function parseDirective(item: unknown, index: number, ctx: AnswerContext, what: string): PluginDirective {
  const at = `${what}: answer directive ${index}`;
  if (!isObject(item)) throw bad(ctx, at, `is ${kind(item)}, expected an object with a "type"`);
  if (typeof item.type !== 'string') throw bad(ctx, at, 'has no string "type"');
  if (!directiveTypes().includes(item.type)) {
    throw bad(
      ctx,
      at,
      `has the unknown type ${JSON.stringify(item.type)} (known: ${directiveTypes().join(', ')})`,
    );
  }
  return item as PluginDirective;
}

/** Validates the text of `execute`: a JSON object with a string `result` and an array `directives`. */
export function parseAnswer(text: string | null, ctx: AnswerContext): PluginAnswer {
  const what = ctx.tool === undefined ? 'execute' : `execute of tool "${ctx.tool}"`;
  if (text === null) throw bad(ctx, what, 'returned NULL, expected a JSON object');
  const compact = compactAnswer(text);
  if (compact !== undefined) return compact;
  const value = parse(ctx, what, text);
  if (!isObject(value)) throw bad(ctx, what, `returned ${kind(value)}, expected a JSON object`);
  if (typeof value.result !== 'string') {
    const fault =
      value.result === undefined ? 'has no "result"' : `has a "result" that is ${kind(value.result)}`;
    throw bad(ctx, what, `answer ${fault}, expected a string`);
  }
  const raw = value.directives ?? [];
  if (!Array.isArray(raw))
    throw bad(ctx, what, `answer has "directives" that is ${kind(raw)}, expected an array`);
  return { result: value.result, directives: raw.map((item, i) => parseDirective(item, i, ctx, what)) };
}

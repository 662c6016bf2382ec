/** Standard Schema tools (zod 4, arktype, valibot): wire JSON Schema, the library's own validation, refusals. */

import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import * as z3 from 'zod/v3';
import { LocalError, McpServer, text } from '../src/index.js';
import { initializedPeer } from './support/in-memory.js';

function serverWithTools() {
  const s = new McpServer({ name: 't', version: '1' });
  s.addTool(
    {
      name: 'zod_add',
      inputSchema: z.object({ a: z.number(), b: z.number().default(10) }),
      outputSchema: z.object({ sum: z.number() }),
    },
    (args) => {
      expectTypeOf(args).toEqualTypeOf<{ a: number; b: number }>();
      return { content: [text(String(args.a + args.b))], structuredContent: { sum: args.a + args.b } };
    },
  );
  s.addTool(
    // An asynchronous refinement: the library's validate() returns a promise.
    {
      name: 'zod_async',
      inputSchema: z.object({ word: z.string().refine(async (w) => w !== 'no', 'not no') }),
    },
    (args) => ({ content: [text(args.word.toUpperCase())] }),
  );
  s.addTool(
    { name: 'ark_upper', inputSchema: type({ word: 'string', 'times?': 'number.integer > 0' }) },
    (args) => {
      expectTypeOf(args).toEqualTypeOf<{ word: string; times?: number }>();
      return { content: [text(args.word.toUpperCase().repeat(args.times ?? 1))] };
    },
  );
  s.addTool(
    {
      name: 'valibot_tag',
      inputSchema: toStandardJsonSchema(
        v.object({ s: v.pipe(v.string(), v.minLength(1)), tag: v.optional(v.string(), 'none') }),
      ),
    },
    (args) => {
      expectTypeOf(args).toEqualTypeOf<{ s: string; tag: string }>();
      return { content: [text(`[${args.s}:${args.tag}]`)] };
    },
  );
  s.addTool({ name: 'zod_bad_out', outputSchema: z.object({ n: z.int() }) }, () => ({
    content: [],
    structuredContent: { n: 1.5 },
  }));
  return s;
}

const textOf = (result: Record<string, unknown>) => (result.content as { text: string }[])[0]?.text;

describe('Standard Schema tools', () => {
  it('lists the JSON Schema made by each library’s converter', async () => {
    const { peer } = await initializedPeer(serverWithTools());
    const { tools } = (await peer.call('tools/list')) as { tools: Record<string, Record<string, unknown>>[] };
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.zod_add?.inputSchema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number', default: 10 } },
      required: ['a'],
    });
    expect(byName.zod_add?.outputSchema).toMatchObject({ type: 'object', required: ['sum'] });
    expect(byName.ark_upper?.inputSchema).toMatchObject({ required: ['word'] });
    expect(byName.valibot_tag?.inputSchema).toMatchObject({
      properties: { s: { type: 'string', minLength: 1 } },
    });
    expect(JSON.stringify(tools)).not.toMatch(/_zod|~standard|_def/);
  });

  it('validates with the library and hands the handler its output (defaults, transforms)', async () => {
    const { peer } = await initializedPeer(serverWithTools());
    const added = await peer.call('tools/call', { name: 'zod_add', arguments: { a: 1 } });
    expect(added.structuredContent).toEqual({ sum: 11 });
    const tagged = await peer.call('tools/call', { name: 'valibot_tag', arguments: { s: 'hi' } });
    expect(textOf(tagged)).toBe('[hi:none]');
    const ark = await peer.call('tools/call', { name: 'ark_upper', arguments: { word: 'ab', times: 2 } });
    expect(textOf(ark)).toBe('ABAB');
    const asyncOk = await peer.call('tools/call', { name: 'zod_async', arguments: { word: 'yes' } });
    expect(textOf(asyncOk)).toBe('YES');
  });

  it('refuses bad arguments with the library’s message and a pointer', async () => {
    const { peer } = await initializedPeer(serverWithTools());
    const bad = await peer.call('tools/call', { name: 'zod_add', arguments: { a: 'x' } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^Invalid arguments for tool zod_add: \/a .*number/i);
    const ark = await peer.call('tools/call', { name: 'ark_upper', arguments: { word: 'a', times: 0 } });
    expect(textOf(ark)).toMatch(/ark_upper: \/times/);
    const asyncBad = await peer.call('tools/call', { name: 'zod_async', arguments: { word: 'no' } });
    expect(textOf(asyncBad)).toBe('Invalid arguments for tool zod_async: /word not no');
    const old = await initializedPeer(serverWithTools(), {}, '2025-06-18');
    const answer = await old.peer.request('tools/call', { name: 'valibot_tag', arguments: { s: '' } });
    expect(answer.error).toMatchObject({ code: -32602, data: { pointer: '/params/arguments/s' } });
  });

  it('checks structuredContent with the output schema', async () => {
    const { peer } = await initializedPeer(serverWithTools());
    const answer = await peer.request('tools/call', { name: 'zod_bad_out' });
    expect(answer.error).toMatchObject({ code: -32603, data: { pointer: '/structuredContent/n' } });
  });

  it('refuses what is neither JSON Schema nor Standard Schema with JSON Schema support', () => {
    const s = new McpServer({ name: 't', version: '1' });
    const add = (inputSchema: unknown) => () =>
      s.addTool({ name: 'x', inputSchema: inputSchema as never }, () => ({ content: [] }));
    expect(add(z3.object({ a: z3.number() }))).toThrow(
      /Standard Schema from zod without the JSON Schema extension/,
    );
    expect(add({ type: 'object', parse() {} })).toThrow(/a function or a schema object\) at "parse"/);
    expect(
      add(
        new (class ZodObject {
          _def = {};
        })(),
      ),
    ).toThrow(
      /must be a JSON Schema \(a plain object\) or a Standard Schema .*got an instance of ZodObject \(a zod 3 schema\?/,
    );
    expect(add(v.object({ a: v.number() }))).toThrow(
      /from valibot without the JSON Schema extension \(~standard.jsonSchema\); wrap it in toStandardJsonSchema\(\) from @valibot\/to-json-schema/,
    );
    expect(add(toStandardJsonSchema(v.object({ s: v.pipe(v.string(), v.trim()) })))).toThrow(
      /\(valibot\) cannot be converted to JSON Schema: The "trim" action/,
    );
    expect(add({ a: z.number() })).toThrow(/has a non-JSON value \(a function or a schema object\) at "a"/);
    expect(add(new Map())).toThrow(/got an instance of Map/);
    expect(add('object')).toThrow(/got a string/);
    try {
      add(z.object({ d: z.date() }))();
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(LocalError);
      expect((error as LocalError).message).toMatch(/\(zod\) cannot be converted to JSON Schema/);
    }
    expect(add(z.object({ a: z.number() }))).not.toThrow();
  });
});

describe('handler types from JSON Schema literals', () => {
  it('infers arguments and structuredContent (checked by tsc over the test files)', async () => {
    const s = new McpServer({ name: 't', version: '1' });
    s.addTool(
      {
        name: 'add',
        inputSchema: {
          type: 'object',
          properties: { a: { type: 'number' }, b: { type: 'number' }, note: { type: 'string' } },
          required: ['a', 'b'],
          additionalProperties: false,
        },
        outputSchema: {
          type: 'object',
          properties: { sum: { type: 'number' } },
          required: ['sum'],
          additionalProperties: false,
        },
      },
      (args) => {
        expectTypeOf(args).toEqualTypeOf<{ a: number; b: number; note?: string }>();
        return { content: [], structuredContent: { sum: args.a + args.b } };
      },
    );
    const shared = {
      type: 'object',
      properties: { tags: { type: 'array', items: { enum: ['x', 'y'] } } },
    } as const;
    s.addTool({ name: 'tags', inputSchema: shared }, (args) => {
      expectTypeOf(args.tags).toEqualTypeOf<('x' | 'y')[] | undefined>();
      return { content: [text(String(args.tags?.length))] };
    });
    const loose: Record<string, unknown> = { type: 'object' };
    s.addTool({ name: 'loose', inputSchema: loose }, (args) => {
      expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
      return { content: [] };
    });
    s.addTool(
      { name: 'wrong', outputSchema: { type: 'object', properties: { n: { type: 'integer' } } } },
      // @ts-expect-error structuredContent must match the outputSchema
      () => ({ content: [], structuredContent: { n: 'one' } }),
    );
    const { peer } = await initializedPeer(s);
    const result = await peer.call('tools/call', { name: 'add', arguments: { a: 2, b: 3 } });
    expect(result.structuredContent).toEqual({ sum: 5 });
  });
});

/**
 * What `tsc --strict` says to a consumer of the built package: typed prompts, template lists and `ctx.auth`
 * compile; each planted misuse (an argument the prompt's schema lacks, a completer for one, a zod raw shape, a
 * plain valibot schema, `ctx.auth` used as if always there) is an error on its own line, with a message that
 * says what to do.
 */

import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { consumerProject, runTsc } from './support/consumer-tsc.mjs';

const HEADER = `import { McpServer, text, type TokenInfo } from '@entropic-mcp/server';
import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as z from 'zod';
const s = new McpServer({ name: 'c', version: '1.0.0' });
`;

const GOOD = `${HEADER}
s.addPrompt(
  { name: 'greet', argsSchema: z.object({ who: z.string(), tone: z.string().optional() }), complete: { who: () => [] } },
  ({ who, tone }) => [{ role: 'user', content: text(who.toUpperCase() + (tone ?? '')) }],
);
s.addPrompt(
  { name: 'json', argsSchema: { type: 'object', properties: { n: { type: 'string' } }, required: ['n'] } },
  (args) => [{ role: 'user', content: text(args.n.padStart(3, '0')) }],
);
s.addPrompt({ name: 'plain', arguments: [{ name: 'x' }] }, (args) => [{ role: 'user', content: text(args.x ?? '') }]);
s.addTool({ name: 'vb', inputSchema: toStandardJsonSchema(v.object({ a: v.number() })) }, ({ a }) => ({
  content: [text(String(a + 1))],
}));
s.addTool({ name: 'zod', inputSchema: z.object({ a: z.number() }) }, ({ a }) => ({ content: [text(String(a * 2))] }));
s.addTool({ name: 'whoami' }, (_args, ctx) => {
  const auth: TokenInfo | undefined = ctx.auth;
  return { content: [text(auth?.scopes.join(' ') ?? 'anonymous')] };
});
s.addResourceTemplate(
  { uriTemplate: 'x://{id}', name: 'x', list: async () => ({ resources: [{ uri: 'x://1', name: 'one' }] }) },
  (uri) => [{ uri, text: '' }],
);
`;

/** Each misuse: the line that must not compile and a piece of tsc's message. */
const MISUSES: [string, string, string][] = [
  [
    'an argument the prompt schema does not have',
    `s.addPrompt({ name: 'p1', argsSchema: z.object({ who: z.string() }) }, (args) => [{ role: 'user', content: text(args.whom) }]);`,
    "Property 'whom' does not exist",
  ],
  [
    'a completer for an argument the prompt schema does not have',
    `s.addPrompt({ name: 'p2', argsSchema: z.object({ who: z.string() }), complete: { whom: () => [] } }, () => []);`,
    "'whom' does not exist",
  ],
  [
    'a JSON Schema prompt argument used as a number',
    `s.addPrompt({ name: 'p3', argsSchema: { type: 'object', properties: { n: { type: 'string' } }, required: ['n'] } }, (args) => [{ role: 'user', content: text(String(args.n.toFixed())) }]);`,
    "Property 'toFixed' does not exist on type 'string'",
  ],
  [
    'a zod raw shape as inputSchema',
    `s.addTool({ name: 't1', inputSchema: { a: z.number() } }, () => ({ content: [] }));`,
    'a record of field schemas ({ a: z.number() }) is not one schema: wrap it in z.object({ ... })',
  ],
  [
    'a zod raw shape as outputSchema',
    `s.addTool({ name: 't2', outputSchema: { n: z.number() } }, () => ({ content: [] }));`,
    'wrap it in z.object',
  ],
  [
    'a zod raw shape as a prompt argsSchema',
    `s.addPrompt({ name: 'p4', argsSchema: { who: z.string() } }, () => []);`,
    'wrap it in z.object',
  ],
  [
    'plain valibot without the converter',
    `s.addTool({ name: 't3', inputSchema: v.object({ a: v.number() }) }, () => ({ content: [] }));`,
    'toStandardJsonSchema() from @valibot/to-json-schema',
  ],
  [
    'ctx.auth used as if every request were authenticated',
    `s.addTool({ name: 't4' }, (_args, ctx) => ({ content: [text(ctx.auth.token)] }));`,
    "'ctx.auth' is possibly 'undefined'",
  ],
];

/** An application that declares what its own authenticate hook returns, and reads it typed. */
const REGISTERED = `import { McpServer, text } from '@entropic-mcp/server';
import { createMcpHttpHandler } from '@entropic-mcp/server/http';
declare module '@entropic-mcp/server' {
  interface Register {
    auth: { user: string; admin: boolean };
  }
}
const s = new McpServer({ name: 'r', version: '1.0.0' });
s.addTool({ name: 'me' }, (_args, ctx) => ({ content: [text(ctx.auth?.admin ? ctx.auth.user : 'guest')] }));
createMcpHttpHandler(s, { auth: { authenticate: () => ({ user: 'ada', admin: true }) } });
// MISUSE
createMcpHttpHandler(s, { auth: { authenticate: () => ({ user: 'ada' }) } });
`;

function errorsOf(output: string): { file: string; line: number; text: string }[] {
  const errors: { file: string; line: number; text: string }[] = [];
  for (const chunk of output.split(/\n(?=\S)/)) {
    const match = /([\w-]+\.ts)\((\d+),\d+\): error (.*)/s.exec(chunk);
    if (match) errors.push({ file: match[1] ?? '', line: Number(match[2]), text: match[3] ?? '' });
  }
  return errors;
}

describe('typed prompts, schemas and ctx.auth under tsc --strict (built package)', () => {
  it('the good code compiles and each planted misuse is an error on its own line', () => {
    const bad = `${HEADER}${MISUSES.map(([, line]) => line).join('\n')}\n`;
    const firstMisuseLine = HEADER.split('\n').length;
    const dir = consumerProject({ 'good.ts': GOOD, 'bad.ts': bad });
    const result = runTsc(dir);
    rmSync(dir, { recursive: true, force: true });
    const errors = errorsOf(result.output);
    expect(
      errors.filter((e) => e.file === 'good.ts'),
      result.output,
    ).toEqual([]);
    MISUSES.forEach(([what, , message], i) => {
      const here = errors.filter((e) => e.file === 'bad.ts' && e.line === firstMisuseLine + i);
      expect(here.length, `${what} compiled:\n${result.output}`).toBeGreaterThan(0);
      expect(here.map((e) => e.text).join('\n'), what).toContain(message);
    });
    const lines = new Set(errors.map((e) => `${e.file}:${e.line}`));
    expect(lines.size, result.output).toBe(MISUSES.length);
  }, 120_000);

  it('Register types ctx.auth as what an application’s own authenticate hook returns', () => {
    const dir = consumerProject({ 'registered.ts': REGISTERED });
    const result = runTsc(dir);
    rmSync(dir, { recursive: true, force: true });
    const misuse = REGISTERED.split('\n').indexOf('// MISUSE') + 2;
    const errors = errorsOf(result.output);
    expect(
      errors.map((e) => e.line),
      result.output,
    ).toEqual([misuse]);
    expect(errors[0]?.text).toContain("Property 'admin' is missing");
  }, 120_000);
});

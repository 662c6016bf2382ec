/**
 * The recipes of docs/middleware.md, run: examples/middleware-recipes.ts over memory in both eras, and the
 * guide's code blocks checked to be that file's regions word for word.
 */

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type CallLogEntry, cacheResults, logCalls, redactFields } from '../examples/middleware-recipes.js';
import { McpServer, REDACTED, ToolError, text } from '../src/index.js';
import { initializedPeer } from './support/in-memory.js';
import { modernPeer } from './support/modern.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('recipe: caching a tool results', () => {
  it('answers a repeated call from memory until the entry expires; tool errors and other arguments miss', async () => {
    let clock = 1000;
    let runs = 0;
    const mcp = new McpServer({ name: 'cache', version: '1' });
    mcp.addTool({ name: 'weather' }, (args) => {
      runs++;
      if (args.city === 'nowhere') throw new ToolError('no such city');
      return { content: [text(`sunny in ${String(args.city)} (run ${runs})`)] };
    });
    mcp.use({ tool: 'weather' }, cacheResults({ ttlMs: 60_000, now: () => clock }));
    const { peer } = await initializedPeer(mcp);
    const ask = async (city: string) =>
      (
        (await peer.call('tools/call', { name: 'weather', arguments: { city } })).content as {
          text: string;
        }[]
      )[0]?.text;
    expect(await ask('Oslo')).toBe('sunny in Oslo (run 1)');
    expect(await ask('Oslo')).toBe('sunny in Oslo (run 1)');
    expect(await ask('Rome')).toBe('sunny in Rome (run 2)');
    expect(await ask('nowhere')).toBe('no such city');
    expect(await ask('nowhere')).toBe('no such city');
    expect(runs).toBe(4);
    clock += 60_000;
    expect(await ask('Oslo')).toBe('sunny in Oslo (run 5)');
  });
});

describe('recipe: redacting a field', () => {
  it.each(['legacy', 'modern'] as const)(
    'hides the field in structuredContent and in JSON text (%s)',
    async (era) => {
      const mcp = new McpServer({ name: 'redact', version: '1' });
      const user = { name: 'Ada', contact: { email: 'ada@example.org', city: 'London' } };
      mcp.addTool(
        {
          name: 'user',
          outputSchema: {
            type: 'object',
            properties: { name: { type: 'string' }, contact: { type: 'object' } },
          },
        },
        () => ({ content: [text(JSON.stringify(user)), text('plain words')], structuredContent: user }),
      );
      mcp.use({ tool: 'user' }, redactFields(['email']));
      const result =
        era === 'legacy'
          ? await (await initializedPeer(mcp)).peer.call('tools/call', { name: 'user', arguments: {} })
          : ((await (await modernPeer(mcp)).modern('tools/call', { name: 'user', arguments: {} }))
              .result as Record<string, unknown>);
      const hidden = { name: 'Ada', contact: { email: REDACTED, city: 'London' } };
      expect(result.structuredContent).toEqual(hidden);
      expect(result.content).toEqual([text(JSON.stringify(hidden)), text('plain words')]);
    },
  );
});

describe('recipe: retry-safe logging', () => {
  it('logs a call that took two 2026-07-28 rounds once, with its outcome, and a throwing sink changes nothing', async () => {
    const entries: CallLogEntry[] = [];
    let clock = 0;
    const mcp = new McpServer({ name: 'log', version: '1' });
    mcp.addTool({ name: 'confirm' }, async (_args, ctx) => {
      const answer = await ctx.elicit('Sure?', { type: 'object', properties: { ok: { type: 'boolean' } } });
      clock += 5;
      return { content: [text(answer.action)] };
    });
    mcp.addTool({ name: 'fails' }, () => {
      throw new Error('backend down');
    });
    mcp.use(
      logCalls(
        (entry) => entries.push(entry),
        () => clock,
      ),
    );
    mcp.use(
      logCalls(() => {
        throw new Error('log disk full');
      }),
    );
    const peer = await modernPeer(mcp, { elicitation: {} });
    const first = (await peer.modern('tools/call', { name: 'confirm', arguments: {} })).result as Record<
      string,
      unknown
    >;
    expect(first.resultType).toBe('input_required');
    expect(entries).toEqual([]);
    const key = Object.keys(first.inputRequests as object)[0] as string;
    const second = await peer.modern('tools/call', {
      name: 'confirm',
      arguments: {},
      requestState: first.requestState,
      inputResponses: { [key]: { action: 'accept', content: { ok: true } } },
    });
    expect(second.result).toMatchObject({ content: [{ text: 'accept' }] });
    const failed = await peer.modern('tools/call', { name: 'fails', arguments: {} });
    expect(failed.error).toMatchObject({ message: 'Internal error in tools/call: backend down' });
    expect(entries).toEqual([
      {
        method: 'tools/call',
        tool: 'confirm',
        era: 'modern',
        rounds: 2,
        principal: undefined,
        ms: 5,
        outcome: 'ok',
      },
      {
        method: 'tools/call',
        tool: 'fails',
        era: 'modern',
        rounds: 1,
        principal: undefined,
        ms: 0,
        outcome: 'error',
        error: 'backend down',
      },
    ]);
  });
});

describe('docs/middleware.md', () => {
  it('shows each recipe exactly as examples/middleware-recipes.ts has it', () => {
    const source = readFileSync(join(ROOT, 'examples/middleware-recipes.ts'), 'utf8');
    const guide = readFileSync(join(ROOT, '../../docs/middleware.md'), 'utf8');
    for (const name of ['cache', 'redact', 'log']) {
      const region = new RegExp(`// #region ${name}\\n([\\s\\S]*?)// #endregion ${name}`).exec(source)?.[1];
      expect(region, `region ${name}`).toBeDefined();
      expect(guide, `the guide's ${name} recipe differs from the example file`).toContain(
        `\`\`\`ts\n${region}\`\`\``,
      );
    }
  });
});

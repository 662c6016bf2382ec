/**
 * The official v2 client (@modelcontextprotocol/client 2.4.0), which speaks 2026-07-28 and falls back
 * to the 2025-11-25 handshake, drives examples/everything-stdio.mjs over stdio.
 */

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const serverPath = join(here, '..', 'examples', 'everything-stdio.mjs');
let client: Client;

const firstText = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text;

beforeAll(async () => {
  client = new Client({ name: 'interop-v2', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler('elicitation/create', async () => ({
    action: 'accept',
    content: { name: 'Grace' },
  }));
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [serverPath], stderr: 'inherit' }),
  );
});

afterAll(async () => {
  await client?.close();
});

describe('official SDK v2 client over stdio', () => {
  it('connects and sees the server', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'everything', version: '1.0.0' });
  });

  it('lists and calls tools, including structured output', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'add']));
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'v2' } }))).toBe('v2');
    expect((await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).structuredContent).toEqual({
      sum: 3,
    });
  });

  it('reads a resource and gets a prompt', async () => {
    const read = await client.readResource({ uri: 'test://items/7' });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual({ id: '7' });
    const prompt = await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
    expect(prompt.messages).toHaveLength(1);
  });

  it('answers elicitation from inside a tool', async () => {
    expect(firstText(await client.callTool({ name: 'ask_name', arguments: {} }))).toBe('Hello, Grace');
  });
});

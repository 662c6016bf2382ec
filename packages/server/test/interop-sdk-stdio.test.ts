/**
 * The official SDK client (v1, @modelcontextprotocol/sdk 1.32.2) drives examples/everything-stdio.mjs
 * in a child process over stdio, through every feature.
 */

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '@entropic-mcp/test-kit/wait';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const serverPath = join(here, '..', 'examples', 'everything-stdio.mjs');

let client: Client;
const logs: unknown[] = [];
let toolsChanged = 0;
let stderr = '';
const transportErrors: Error[] = [];
const updated: string[] = [];
/** The methods the client wrote to the server's stdin, in order. */
const sentMethods: string[] = [];

const firstText = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text;

beforeAll(async () => {
  client = new Client(
    { name: 'interop-client', version: '1.0.0' },
    { capabilities: { elicitation: {}, sampling: {}, roots: { listChanged: true } } },
  );
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    expect(request.params.message).toBe('What is your name?');
    return { action: 'accept', content: { name: 'Ada' } };
  });
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: 'assistant',
    content: { type: 'text', text: '4' },
    model: 'test-model',
  }));
  client.setRequestHandler(ListRootsRequestSchema, async () => ({
    roots: [{ uri: 'file:///work', name: 'work' }],
  }));
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    logs.push(n.params);
  });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    toolsChanged++;
  });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    updated.push(n.params.uri);
  });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverPath],
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  transport.onerror = (error) => {
    transportErrors.push(error);
  };
  const send = transport.send.bind(transport);
  transport.send = (message) => {
    if ('method' in message) sentMethods.push(message.method);
    return send(message);
  };
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
});

describe('official SDK v1 client over stdio', () => {
  it('negotiates 2025-11-25 and sees server info and capabilities', () => {
    expect(client.getServerVersion()).toMatchObject({
      name: 'everything',
      version: '1.0.0',
      title: 'Everything',
      description: 'Exercises every feature of @entropic-mcp/server',
    });
    expect(client.getInstructions()).toBe('Call echo first.');
    expect(client.getServerCapabilities()).toMatchObject({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      logging: {},
      completions: {},
    });
  });

  it('lists and calls tools, with structured output and tool errors', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('echo');
    expect(tools.find((t) => t.name === 'echo')?.annotations).toEqual({ readOnlyHint: true });
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('hi');
    const add = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(add.structuredContent).toEqual({ sum: 5 });
    const fail = await client.callTool({ name: 'fail', arguments: {} });
    expect(fail.isError).toBe(true);
    expect(firstText(fail)).toBe('this tool always fails');
    const invalid = await client.callTool({ name: 'add', arguments: { a: 'x', b: 3 } });
    expect(invalid.isError).toBe(true);
    expect(firstText(invalid)).toContain('/a');
    const link = await client.callTool({ name: 'link', arguments: {} });
    expect(link.content).toEqual([
      { type: 'resource_link', uri: 'test://static', name: 'static', mimeType: 'text/plain' },
    ]);
  });

  it('reads resources and templates', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['test://binary', 'test://static']); // by URI
    const text = await client.readResource({ uri: 'test://static' });
    expect(text.contents).toEqual([{ uri: 'test://static', mimeType: 'text/plain', text: 'static content' }]);
    const binary = await client.readResource({ uri: 'test://binary' });
    expect(Buffer.from((binary.contents[0] as { blob: string }).blob, 'base64')).toEqual(
      Buffer.from([0, 1, 2, 3]),
    );
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      { uriTemplate: 'test://items/{id}', name: 'item', mimeType: 'application/json' },
    ]);
    const item = await client.readResource({ uri: 'test://items/42' });
    expect(JSON.parse((item.contents[0] as { text: string }).text)).toEqual({ id: '42' });
    await expect(client.readResource({ uri: 'test://missing' })).rejects.toMatchObject({ code: -32002 });
  });

  it('subscribes to a resource and receives resources/updated', async () => {
    await client.subscribeResource({ uri: 'test://static' });
    await client.callTool({ name: 'touch', arguments: { uri: 'test://static' } });
    await client.callTool({ name: 'touch', arguments: { uri: 'test://binary' } });
    await waitFor(() => updated.length > 0, 'resources/updated');
    await client.ping(); // a second update, had one been sent, would have come before this answer
    expect(updated).toEqual(['test://static']);
    await client.unsubscribeResource({ uri: 'test://static' });
  });

  it('gets prompts and completes arguments and template variables', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts[0]).toMatchObject({
      name: 'greet',
      arguments: [{ name: 'name', required: true }, { name: 'style' }],
    });
    const prompt = await client.getPrompt({ name: 'greet', arguments: { name: 'Ada', style: 'formal' } });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Please greet Ada in a formal way.' });
    await expect(client.getPrompt({ name: 'greet', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    const style = await client.complete({
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'style', value: 'f' },
    });
    expect(style.completion.values).toEqual(['formal', 'friendly']);
    const id = await client.complete({
      ref: { type: 'ref/resource', uri: 'test://items/{id}' },
      argument: { name: 'id', value: 'ap' },
    });
    expect(id.completion.values).toEqual(['apple', 'apricot']);
  });

  it('reports progress to onprogress', async () => {
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const result = await client.callTool({ name: 'progress', arguments: { steps: 10 } }, undefined, {
      onprogress: (p) => seen.push(p),
    });
    expect(firstText(result)).toBe('did 10 steps');
    const expected = Array.from({ length: 10 }, (_, i) => ({
      progress: i + 1,
      total: 10,
      message: `step ${i + 1} of 10`,
    }));
    // This client runs notification handlers a microtask late but settles responses at once, so an update is
    // dropped on its side when it arrives in the same read as the response: always the last one, and on a
    // loaded machine (a client that did not read for 10 ms) the ones before it too. The steps are 10 ms apart and
    // the first is 90 ms ahead of the response, so it arrives on its own; whatever arrives is in order and whole.
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen).toEqual(expected.slice(0, seen.length));
  });

  it('honours logging/setLevel and scrubs credentials in log data', async () => {
    await client.setLoggingLevel('info');
    logs.length = 0;
    await client.callTool({ name: 'log', arguments: {} });
    await waitFor(() => logs.length > 0, 'the log message');
    expect(logs).toEqual([
      { level: 'warning', logger: 'everything', data: { message: 'careful', apiKey: '[REDACTED]' } },
    ]);
  });

  it('cancels a running tool call when the client aborts', async () => {
    const controller = new AbortController();
    const calls = sentMethods.filter((m) => m === 'tools/call').length;
    const call = client.callTool({ name: 'wait', arguments: {} }, undefined, { signal: controller.signal });
    await waitFor(
      () => sentMethods.filter((m) => m === 'tools/call').length > calls,
      'the call to be written',
    );
    controller.abort('no longer needed');
    await expect(call).rejects.toThrow();
    // The server reads the call, then the cancellation, then this call: in the order they were written.
    expect(firstText(await client.callTool({ name: 'cancelled_count', arguments: {} }))).toBe('1');
  });

  it('serves elicitation, sampling and roots requests from inside tools', async () => {
    expect(firstText(await client.callTool({ name: 'ask_name', arguments: {} }))).toBe('Hello, Ada');
    expect(firstText(await client.callTool({ name: 'ask_model', arguments: {} }))).toBe('model said: 4');
    expect(firstText(await client.callTool({ name: 'roots', arguments: {} }))).toBe('file:///work');
  });

  it('sends tools/list_changed when a tool is added at run time', async () => {
    const before = toolsChanged;
    await client.callTool({ name: 'add_tool', arguments: { name: 'late' } });
    await waitFor(() => toolsChanged > before, 'tools/list_changed');
    expect(toolsChanged).toBe(before + 1);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('late');
    expect(firstText(await client.callTool({ name: 'late', arguments: {} }))).toBe('I am late');
  });

  it('keeps console.log of a handler off the protocol stream', async () => {
    expect(firstText(await client.callTool({ name: 'noisy', arguments: {} }))).toBe('quiet on stdout');
    expect(await client.ping()).toEqual({});
    await waitFor(() => stderr.includes('noise'), "the handler's console.log on stderr");
    expect(stderr).toContain('noise from a handler');
    expect(transportErrors).toEqual([]);
  });

  it('answers ping', async () => {
    expect(await client.ping()).toEqual({});
  });
});

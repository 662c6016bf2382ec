/**
 * The official SDK v1 client (@modelcontextprotocol/sdk 1.32.2) with its Streamable HTTP transport
 * drives the server over a real socket in stateful SSE mode, through every feature.
 */

import { waitFor } from '@entropic-mcp/test-kit/wait';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text } from '../src/index.js';
import { type Fixture, startFixture } from './support/http-interop-fixture.js';

let fx: Fixture;
let client: Client;
let transport: StreamableHTTPClientTransport;
const logs: unknown[] = [];
let toolsChanged = 0;
const updated: string[] = [];

const firstText = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text;

beforeAll(async () => {
  fx = await startFixture();
  fx.mcp.addResource({ uri: 'test://watched', name: 'watched' }, (uri) => [{ uri, text: 'v1' }]);
  client = new Client(
    { name: 'http-interop', version: '1.0.0' },
    { capabilities: { elicitation: {}, sampling: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Ada' } }));
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: 'assistant',
    content: { type: 'text', text: '4' },
    model: 'test-model',
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
  transport = new StreamableHTTPClientTransport(new URL(fx.url));
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await fx?.close();
});

describe('official SDK v1 client over Streamable HTTP (stateful, SSE)', () => {
  it('initializes a session with 2025-11-25', () => {
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.getServerVersion()).toMatchObject({ name: 'http-interop', version: '1.0.0' });
    expect(fx.handler.sessionCount).toBe(1);
  });

  it('lists and calls tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['echo', 'count', 'wait', 'chatty', 'ask_name', 'ask_llm', 'drop_stream']),
    );
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'over http' } }))).toBe(
      'over http',
    );
  });

  it('delivers progress on the request stream', async () => {
    const seen: number[] = [];
    const result = await client.callTool({ name: 'count', arguments: {} }, CallToolResultSchema, {
      onprogress: (p) => seen.push(p.progress),
    });
    expect(firstText(result)).toBe('counted');
    expect(seen).toEqual([1, 2, 3]);
  });

  it('cancels a running tool when the client aborts', async () => {
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait', arguments: {} }, CallToolResultSchema, {
      signal: controller.signal,
    });
    await waitFor(() => fx.waiting.length === 1, 'the tool to start');
    controller.abort('enough');
    await expect(call).rejects.toThrow();
    await waitFor(() => fx.cancelled.length === 1, 'the handler to see the abort');
  });

  it('sends log messages above the level the client set, with credentials scrubbed', async () => {
    await client.setLoggingLevel('info');
    logs.length = 0;
    expect(firstText(await client.callTool({ name: 'chatty', arguments: {} }))).toBe('logged');
    await waitFor(() => logs.length >= 2, 'two log messages');
    expect(logs).toEqual([
      expect.objectContaining({ level: 'info', data: { step: 'working', password: '[REDACTED]' } }),
      expect.objectContaining({ level: 'error', data: 'something failed' }),
    ]);
  });

  it('answers elicitation and sampling from inside a tool', async () => {
    expect(firstText(await client.callTool({ name: 'ask_name', arguments: {} }))).toBe('Hello, Ada');
    expect(firstText(await client.callTool({ name: 'ask_llm', arguments: {} }))).toBe('model said 4');
  });

  it('delivers list_changed and resources/updated on the standalone GET stream', async () => {
    await client.subscribeResource({ uri: 'test://watched' });
    const before = toolsChanged;
    fx.mcp.addTool({ name: 'late', description: 'added after connect' }, () => ({ content: [text('late')] }));
    await waitFor(() => toolsChanged > before, 'tools/list_changed');
    fx.mcp.notifyResourceUpdated('test://watched');
    await waitFor(() => updated.includes('test://watched'), 'resources/updated');
    expect(firstText(await client.callTool({ name: 'late', arguments: {} }))).toBe('late');
  });

  it('resumes a POST stream the server dropped mid-call (Last-Event-ID replay)', async () => {
    const seen: number[] = [];
    const result = await client.callTool({ name: 'drop_stream', arguments: {} }, CallToolResultSchema, {
      onprogress: (p) => seen.push(p.progress),
    });
    expect(firstText(result)).toBe('resumed');
    expect(seen).toEqual([1, 2, 3]);
  });

  it('resumes the standalone stream after it drops, replaying what was sent meanwhile', async () => {
    const sessionId = transport.sessionId as string;
    const before = toolsChanged;
    expect(fx.handler.session(sessionId)?.closeStandaloneStream(2000)).toBe(true);
    fx.mcp.addTool({ name: 'while_away', description: 'added while the GET stream was down' }, () => ({
      content: [text('x')],
    }));
    await waitFor(() => toolsChanged > before, 'the replayed tools/list_changed');
  });

  it('DELETE ends the session; the server forgets it', async () => {
    const sessionId = transport.sessionId as string;
    await transport.terminateSession();
    expect(fx.handler.session(sessionId)).toBeUndefined();
    expect(fx.handler.sessionCount).toBe(0);
    const res = await fetch(fx.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(res.status).toBe(404);
  });
});

/** The tools the conformance scenarios call, with the names and texts they expect. */

import {
  audio,
  type HandlerContext,
  image,
  type McpServer,
  resource,
  ToolError,
  text,
} from '@entropic-mcp/server';
import { RED_PIXEL_PNG, SILENT_WAV, sleep } from './media.js';

const NO_ARGS = { type: 'object', properties: {} } as const;

/** Closes the SSE stream of a running request so the client must resume (HTTP, stateful). */
export type StreamCloser = (ctx: HandlerContext) => boolean;

export function addTools(server: McpServer, closeStream: StreamCloser): void {
  server.addTool(
    { name: 'test_simple_text', description: 'Returns simple text content', inputSchema: NO_ARGS },
    () => ({
      content: [text('This is a simple text response for testing.')],
    }),
  );

  server.addTool(
    { name: 'test_image_content', description: 'Returns image content', inputSchema: NO_ARGS },
    () => ({
      content: [image(RED_PIXEL_PNG, 'image/png')],
    }),
  );

  server.addTool(
    { name: 'test_audio_content', description: 'Returns audio content', inputSchema: NO_ARGS },
    () => ({
      content: [audio(SILENT_WAV, 'audio/wav')],
    }),
  );

  server.addTool(
    { name: 'test_embedded_resource', description: 'Returns an embedded resource', inputSchema: NO_ARGS },
    () => ({
      content: [
        resource({
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        }),
      ],
    }),
  );

  server.addTool(
    {
      name: 'test_multiple_content_types',
      description: 'Returns text, image and resource',
      inputSchema: NO_ARGS,
    },
    () => ({
      content: [
        text('Multiple content types test:'),
        image(RED_PIXEL_PNG, 'image/png'),
        resource({
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: JSON.stringify({ test: 'data', value: 123 }),
        }),
      ],
    }),
  );

  server.addTool(
    {
      name: 'test_tool_with_logging',
      description: 'Sends three log messages while it runs',
      inputSchema: NO_ARGS,
    },
    async (_args, ctx) => {
      ctx.log('info', 'Tool execution started');
      await sleep(50, ctx.signal);
      ctx.log('info', 'Tool processing data');
      await sleep(50, ctx.signal);
      ctx.log('info', 'Tool execution completed');
      return { content: [text('Logging test completed')] };
    },
  );

  server.addTool(
    {
      name: 'test_tool_with_progress',
      description: 'Reports progress 0, 50 and 100 of 100',
      inputSchema: NO_ARGS,
    },
    async (_args, ctx) => {
      ctx.progress(0, 100);
      await sleep(50, ctx.signal);
      ctx.progress(50, 100);
      await sleep(50, ctx.signal);
      ctx.progress(100, 100);
      return { content: [text('Progress test completed')] };
    },
  );

  server.addTool(
    { name: 'test_error_handling', description: 'Always fails with a tool error', inputSchema: NO_ARGS },
    () => {
      throw new ToolError('This tool intentionally returns an error for testing');
    },
  );

  server.addTool(
    {
      name: 'test_reconnection',
      description: 'Closes its SSE stream mid-call; the result arrives after the client resumes',
      inputSchema: NO_ARGS,
    },
    async (_args, ctx) => {
      closeStream(ctx);
      await sleep(200, ctx.signal);
      return { content: [text('Reconnection test completed')] };
    },
  );

  server.addTool(
    {
      name: 'test_sampling',
      description: 'Asks the client to sample an LLM',
      inputSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
    },
    async (args, ctx) => {
      const result = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: String(args.prompt) } }],
        maxTokens: 100,
      });
      const reply = result.content as { type: string; text?: string };
      return {
        content: [text(`LLM response: ${reply.type === 'text' ? reply.text : JSON.stringify(reply)}`)],
      };
    },
  );

  addElicitationTools(server);

  server.addTool(
    {
      name: 'json_schema_2020_12_tool',
      description: 'Tool with JSON Schema 2020-12 features',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: {
          address: {
            $anchor: 'addressDef',
            type: 'object',
            properties: { street: { type: 'string' }, city: { type: 'string' } },
          },
        },
        properties: {
          name: { type: 'string' },
          address: { $ref: '#/$defs/address' },
          contactMethod: { type: 'string', enum: ['phone', 'email'] },
          phone: { type: 'string' },
          email: { type: 'string' },
        },
        allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
        if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
        // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, in a schema never awaited
        then: { required: ['phone'] },
        else: { required: ['email'] },
        additionalProperties: false,
      },
    },
    (args) => ({ content: [text(`Received: ${JSON.stringify(args)}`)] }),
  );
}

function addElicitationTools(server: McpServer): void {
  server.addTool(
    {
      name: 'test_elicitation',
      description: 'Asks the user for a username and an email',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    },
    async (args, ctx) => {
      const result = await ctx.elicit(String(args.message), {
        type: 'object',
        properties: {
          username: { type: 'string', description: "User's response" },
          email: { type: 'string', description: "User's email address" },
        },
        required: ['username', 'email'],
      });
      return {
        content: [
          text(`User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`),
        ],
      };
    },
  );

  server.addTool(
    {
      name: 'test_elicitation_sep1034_defaults',
      description: 'Elicitation whose schema has defaults for every primitive type',
      inputSchema: NO_ARGS,
    },
    async (_args, ctx) => {
      const result = await ctx.elicit('Please review your details', {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'Your name', default: 'John Doe' },
          age: { type: 'integer', description: 'Your age', default: 30 },
          score: { type: 'number', description: 'Your score', default: 95.5 },
          status: {
            type: 'string',
            description: 'Account status',
            enum: ['active', 'inactive', 'pending'],
            default: 'active',
          },
          verified: { type: 'boolean', description: 'Verified account', default: true },
        },
      });
      return { content: [text(completed(result.action, result.content))] };
    },
  );

  server.addTool(
    {
      name: 'test_elicitation_sep1330_enums',
      description: 'Elicitation with every enum schema variant',
      inputSchema: NO_ARGS,
    },
    async (_args, ctx) => {
      const result = await ctx.elicit('Please choose', {
        type: 'object',
        properties: {
          untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          titledSingle: {
            type: 'string',
            oneOf: [
              { const: 'value1', title: 'First Option' },
              { const: 'value2', title: 'Second Option' },
              { const: 'value3', title: 'Third Option' },
            ],
          },
          legacyEnum: {
            type: 'string',
            enum: ['opt1', 'opt2', 'opt3'],
            enumNames: ['Option One', 'Option Two', 'Option Three'],
          },
          untitledMulti: {
            type: 'array',
            items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          },
          titledMulti: {
            type: 'array',
            items: {
              anyOf: [
                { const: 'value1', title: 'First Choice' },
                { const: 'value2', title: 'Second Choice' },
                { const: 'value3', title: 'Third Choice' },
              ],
            },
          },
        },
      });
      return { content: [text(completed(result.action, result.content))] };
    },
  );
}

function completed(action: string, content: unknown): string {
  return `Elicitation completed: action=${action}, content=${JSON.stringify(content ?? {})}`;
}

// A server that uses every feature of the API over stdio: tools (structured output, progress,
// logging, cancellation, elicitation, sampling, roots), resources, templates, prompts, completion.
import { McpServer, resourceLink, ToolError, text } from '@entropic-mcp/server';
import { serveStdio } from '@entropic-mcp/server/stdio';

const server = new McpServer(
  {
    name: 'everything',
    version: '1.0.0',
    title: 'Everything',
    description: 'Exercises every feature of @entropic-mcp/server',
    instructions: 'Call echo first.',
  },
  { capabilities: { subscribe: true } },
);

let cancelled = 0;

server.addTool(
  {
    name: 'echo',
    description: 'Echoes text',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    annotations: { readOnlyHint: true },
  },
  (args) => ({ content: [text(args.text)] }),
);

server.addTool(
  {
    name: 'add',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
    outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
  },
  ({ a, b }) => ({ content: [text(String(a + b))], structuredContent: { sum: a + b } }),
);

server.addTool({ name: 'fail', description: 'Always fails as a tool error' }, () => {
  throw new ToolError('this tool always fails');
});

server.addTool({ name: 'link' }, () => ({
  content: [resourceLink({ uri: 'test://static', name: 'static', mimeType: 'text/plain' })],
}));

server.addTool({ name: 'progress', inputSchema: { type: 'object' } }, async ({ steps = 3 }, ctx) => {
  for (let i = 1; i <= steps; i++) {
    await new Promise((r) => setTimeout(r, 10));
    ctx.progress(i, steps, `step ${i} of ${steps}`);
  }
  return { content: [text(`did ${steps} steps`)] };
});

server.addTool({ name: 'noisy', description: 'Writes to console.log, which must not reach stdout' }, () => {
  console.log('noise from a handler');
  return { content: [text('quiet on stdout')] };
});

server.addTool({ name: 'log' }, (_args, ctx) => {
  ctx.log('debug', { detail: 'debug detail' }, 'everything');
  ctx.log('warning', { message: 'careful', apiKey: 'sk-123' }, 'everything');
  return { content: [text('logged')] };
});

server.addTool({ name: 'wait' }, (_args, ctx) => {
  return new Promise((resolve) => {
    ctx.signal.addEventListener('abort', () => {
      cancelled++;
      resolve({ content: [text('cancelled')] });
    });
  });
});

server.addTool({ name: 'cancelled_count' }, () => ({ content: [text(String(cancelled))] }));

server.addTool({ name: 'ask_name' }, async (_args, ctx) => {
  const answer = await ctx.elicit('What is your name?', {
    type: 'object',
    properties: { name: { type: 'string', description: 'Your name' } },
    required: ['name'],
  });
  return { content: [text(answer.action === 'accept' ? `Hello, ${answer.content.name}` : answer.action)] };
});

server.addTool({ name: 'ask_model' }, async (_args, ctx) => {
  const reply = await ctx.sample({
    messages: [{ role: 'user', content: text('What is 2 + 2?') }],
    maxTokens: 10,
  });
  return { content: [text(`model said: ${reply.content.text}`)] };
});

server.addTool({ name: 'roots' }, async (_args, ctx) => {
  const roots = await ctx.listRoots();
  return { content: [text(roots.map((r) => r.uri).join('\n'))] };
});

server.addTool({ name: 'add_tool', inputSchema: { type: 'object' } }, ({ name }) => {
  server.addTool({ name, description: 'added at run time' }, () => ({ content: [text(`I am ${name}`)] }));
  return { content: [text(`added ${name}`)] };
});

server.addTool({ name: 'touch', inputSchema: { type: 'object' } }, ({ uri }) => {
  server.notifyResourceUpdated(uri);
  return { content: [text(`touched ${uri}`)] };
});

server.addResource(
  { uri: 'test://static', name: 'static', title: 'Static text', mimeType: 'text/plain' },
  (uri) => [{ uri, mimeType: 'text/plain', text: 'static content' }],
);
server.addResource({ uri: 'test://binary', name: 'binary', mimeType: 'application/octet-stream' }, (uri) => [
  { uri, mimeType: 'application/octet-stream', blob: Buffer.from([0, 1, 2, 3]).toString('base64') },
]);
server.addResourceTemplate(
  {
    uriTemplate: 'test://items/{id}',
    name: 'item',
    mimeType: 'application/json',
    complete: { id: (value) => ['apple', 'apricot', 'banana'].filter((v) => v.startsWith(value)) },
  },
  (uri, { id }) => [{ uri, mimeType: 'application/json', text: JSON.stringify({ id }) }],
);

server.addPrompt(
  {
    name: 'greet',
    description: 'Greets someone',
    arguments: [{ name: 'name', description: 'Who to greet', required: true }, { name: 'style' }],
    complete: { style: (value) => ['formal', 'friendly'].filter((v) => v.startsWith(value)) },
  },
  ({ name, style = 'friendly' }) => ({
    description: `A ${style} greeting`,
    messages: [{ role: 'user', content: text(`Please greet ${name} in a ${style} way.`) }],
  }),
);

await serveStdio(server);

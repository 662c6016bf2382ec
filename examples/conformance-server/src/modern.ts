/**
 * Fixtures of the 2026-07-28 scenarios: multi-round-trip tools and prompt (input_required), the
 * capability probe, and a tool whose arguments are mirrored into `Mcp-Param-*` headers.
 */

import { type HandlerContext, McpError, type McpServer, text } from '@entropic-mcp/server';

const NO_ARGS = { type: 'object', properties: {} } as const;

function form(name: string, type = 'string') {
  return { type: 'object', properties: { [name]: { type } }, required: [name] };
}

function field(answer: { content?: Record<string, unknown> }, name: string): string {
  return String(answer.content?.[name] ?? '');
}

export function addModernTools(server: McpServer): void {
  server.addTool(
    {
      name: 'test_input_required_result_elicitation',
      description: 'Asks the user for a name (MRTR)',
      inputSchema: NO_ARGS,
    },
    async (_args, ctx) => {
      const answer = await ctx.elicit('What is your name?', form('name'), { key: 'user_name' });
      return { content: [text(`Hello, ${field(answer, 'name')}!`)] };
    },
  );
  server.addTool(
    {
      name: 'test_input_required_result_sampling',
      description: 'Asks the client model a question (MRTR)',
      inputSchema: NO_ARGS,
    },
    async (_args, ctx) => {
      const answer = await ctx.sample(
        {
          messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
          maxTokens: 100,
        },
        { key: 'capital_question' },
      );
      const reply = answer.content as { text?: string };
      return { content: [text(`The model said: ${reply.text ?? ''}`)] };
    },
  );
  server.addTool(
    {
      name: 'test_input_required_result_list_roots',
      description: 'Asks for the client roots (MRTR)',
      inputSchema: NO_ARGS,
    },
    async (_args, ctx) => {
      const roots = await ctx.listRoots({ key: 'client_roots' });
      return { content: [text(`Roots: ${roots.map((r) => r.uri).join(', ')}`)] };
    },
  );
  server.addTool(
    {
      name: 'test_input_required_result_request_state',
      description: 'Round-trips a sealed requestState',
      inputSchema: NO_ARGS,
    },
    async (_args, ctx) => {
      const answer = await ctx.elicit('Please confirm', form('ok', 'boolean'), { key: 'confirm' });
      // Round 2 runs only after the server verified the echoed state (MAC, expiry, request, principal).
      return { content: [text(`state-ok (round ${ctx.round}, ok=${String(answer.content?.ok)})`)] };
    },
  );
  server.addTool(
    {
      name: 'test_input_required_result_multiple_inputs',
      description: 'Asks three things at once',
      inputSchema: NO_ARGS,
    },
    async (_args, ctx) => {
      const { user_name, greeting, client_roots } = await ctx.ask({
        user_name: {
          method: 'elicitation/create',
          params: { message: 'What is your name?', requestedSchema: form('name') },
        },
        greeting: {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
            maxTokens: 50,
          },
        },
        client_roots: { method: 'roots/list' },
      });
      const said = (greeting.content as { text?: string }).text ?? '';
      return { content: [text(`${said} ${field(user_name, 'name')} (${client_roots.roots.length} roots)`)] };
    },
  );
  server.addTool(
    {
      name: 'test_input_required_result_multi_round',
      description: 'Asks in two rounds',
      inputSchema: NO_ARGS,
    },
    async (_args, ctx) => {
      const step1 = await ctx.elicit('Step 1: What is your name?', form('name'), { key: 'step1' });
      const step2 = await ctx.elicit('Step 2: What is your favorite color?', form('color'), { key: 'step2' });
      return { content: [text(`${field(step1, 'name')} likes ${field(step2, 'color')}`)] };
    },
  );
  server.addTool(
    {
      name: 'test_input_required_result_tampered_state',
      description: 'Refuses a tampered requestState',
      inputSchema: NO_ARGS,
    },
    async (_args, ctx) => {
      const answer = await ctx.elicit('Please confirm', form('ok', 'boolean'), { key: 'confirm' });
      return { content: [text(`confirmed: ${String(answer.content?.ok)}`)] };
    },
  );
  server.addTool(
    {
      name: 'test_input_required_result_capabilities',
      description: 'Asks only for what the client declared',
      inputSchema: NO_ARGS,
    },
    async (_args, ctx) => askWhatIsDeclared(ctx),
  );
  server.addTool(
    {
      name: 'test_missing_capability',
      description: 'Needs sampling, whether or not the client declared it',
      inputSchema: NO_ARGS,
    },
    async (_args, ctx) => {
      const answer = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: 'ping' } }],
        maxTokens: 10,
      });
      return { content: [text(`sampled: ${JSON.stringify(answer.content)}`)] };
    },
  );
  server.addTool(
    {
      name: 'test_custom_headers',
      description: 'Echoes a region that is mirrored into the Mcp-Param-Region header',
      inputSchema: {
        type: 'object',
        properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
        required: ['region'],
      },
    },
    (args) => ({ content: [text(`region: ${String(args.region)}`)] }),
  );
  addStreamTools(server);
  server.addPrompt(
    {
      name: 'test_input_required_result_prompt',
      description: 'A prompt that asks the user for context (MRTR)',
    },
    async (_args, ctx) => {
      const answer = await ctx.elicit('What context should the prompt use?', form('context'), {
        key: 'user_context',
      });
      return [{ role: 'user', content: { type: 'text', text: `Context: ${field(answer, 'context')}` } }];
    },
  );
}

async function askWhatIsDeclared(ctx: HandlerContext) {
  const caps = ctx.client.capabilities;
  const asked: string[] = [];
  if (caps.elicitation) {
    await ctx.elicit('What is your name?', form('name'), { key: 'user_name' });
    asked.push('elicitation');
  }
  if (caps.sampling) {
    await ctx.sample(
      { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 10 },
      { key: 'greeting' },
    );
    asked.push('sampling');
  }
  if (caps.roots) {
    await ctx.listRoots({ key: 'client_roots' });
    asked.push('roots');
  }
  if (asked.length === 0)
    throw new McpError(-32021, 'Missing required client capability: elicitation, sampling or roots', {
      requiredCapabilities: { sampling: {} },
    });
  return { content: [text(`asked for: ${asked.join(', ')}`)] };
}

/** Tools the stateless scenario uses to watch a request's stream and the listen stream. */
function addStreamTools(server: McpServer): void {
  server.addTool(
    {
      name: 'test_streaming_elicitation',
      description: 'Reports progress, then asks the user (MRTR)',
      inputSchema: NO_ARGS,
    },
    async (_args, ctx) => {
      ctx.progress(1, 2, 'asking');
      const answer = await ctx.elicit('What is your name?', form('name'), { key: 'user_name' });
      return { content: [text(`Hello, ${field(answer, 'name')}!`)] };
    },
  );
  server.addTool(
    {
      name: 'test_logging_tool',
      description: 'Logs at three levels (sent only when the request set a logLevel)',
      inputSchema: NO_ARGS,
    },
    (_args, ctx) => {
      ctx.log('debug', 'debug message');
      ctx.log('info', 'info message');
      ctx.log('warning', 'warning message');
      return { content: [text('logged')] };
    },
  );
  let changes = 0;
  server.addTool(
    {
      name: 'test_trigger_tool_change',
      description: 'Adds and removes a tool (tools list_changed)',
      inputSchema: NO_ARGS,
    },
    () => {
      server.addTool({ name: `transient_tool_${++changes}` }, () => ({ content: [] })).remove();
      return { content: [text('tools changed')] };
    },
  );
  server.addTool(
    {
      name: 'test_trigger_prompt_change',
      description: 'Adds and removes a prompt (prompts list_changed)',
      inputSchema: NO_ARGS,
    },
    () => {
      server.addPrompt({ name: `transient_prompt_${++changes}` }, () => []).remove();
      return { content: [text('prompts changed')] };
    },
  );
}

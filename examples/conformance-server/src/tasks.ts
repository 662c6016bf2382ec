/**
 * Fixtures of the tasks scenarios (2026-07-28 extension `io.modelcontextprotocol/tasks`): a
 * synchronous tool, long jobs that run as tasks (one that can be cancelled, one that reports a tool
 * error, one that ends in a protocol error), jobs that ask the user while they run (one question,
 * two at once), and a tool that asks first (multi-round-trip) and then continues as a task.
 */

import { type HandlerContext, McpError, type McpServer, ToolError, text } from '@entropic-mcp/server';

const NO_ARGS = { type: 'object', properties: {} } as const;

/** Wait `ms`, or reject at once when the request (or its task) is cancelled. */
function work(ms: number, ctx: HandlerContext): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    ctx.onAbort(() => {
      clearTimeout(timer);
      reject(new Error('cancelled'));
    });
  });
}

/** An object schema of one required field (tool input, or the form of a question). */
function oneField<const F extends string, const T extends 'string' | 'boolean'>(field: F, type: T) {
  const properties = { [field]: { type } } as { readonly [K in F]: { readonly type: T } };
  return { type: 'object', properties, required: [field] as readonly [F] } as const;
}

/** A job that works for `ms`, then ends in `failure` (a tool error or a protocol error). */
function addFailingJob(
  server: McpServer,
  name: string,
  description: string,
  taskSupport: 'optional' | 'required',
  ms: number,
  failure: () => Error,
): void {
  server.addTool(
    { name, description, inputSchema: NO_ARGS, execution: { taskSupport } },
    async (_args, ctx) => {
      await work(ms, ctx);
      throw failure();
    },
  );
}

export function addTaskTools(server: McpServer): void {
  server.addTool(
    {
      name: 'greet',
      description: 'Greets by name, synchronously (never a task)',
      inputSchema: oneField('name', 'string'),
    },
    ({ name }) => ({ content: [text(`Hello, ${name}!`)] }),
  );
  server.addTool(
    {
      name: 'slow_compute',
      description: 'Computes for `seconds` seconds; runs as a task when the client can',
      inputSchema: {
        type: 'object',
        properties: { seconds: { type: 'number', minimum: 0 }, label: { type: 'string' } },
        required: ['seconds'],
      },
      execution: { taskSupport: 'optional' },
    },
    async ({ seconds, label }, ctx) => {
      ctx.progress(0, seconds, `computing ${label ?? ''}`.trim());
      await work(seconds * 1000, ctx);
      return { content: [text(`computed ${label ?? 'result'} in ${seconds} s`)] };
    },
  );
  addFailingJob(
    server,
    'failing_job',
    'Works for a second, then reports a tool error; runs only as a task',
    'required',
    1000,
    () => new ToolError('the job failed: the input data was rejected'),
  );
  addFailingJob(
    server,
    'protocol_error_job',
    'Works for half a second, then ends in a protocol (JSON-RPC) error',
    'optional',
    500,
    () => new McpError(-32603, 'Internal error: the job crashed'),
  );
  addInputTools(server);
}

/** Tasks that need the user while they run, and the multi-round-trip tool that becomes a task. */
function addInputTools(server: McpServer): void {
  server.addTool(
    {
      name: 'confirm_delete',
      description: 'Looks the file up, then asks the user to confirm its deletion',
      inputSchema: oneField('filename', 'string'),
      execution: { taskSupport: 'optional' },
    },
    async ({ filename }, ctx) => {
      await work(100, ctx);
      const answer = await ctx.elicit(`Delete ${filename}?`, oneField('confirm', 'boolean'), {
        key: 'confirm',
      });
      const yes = answer.action === 'accept' && answer.content?.confirm === true;
      return { content: [text(yes ? `deleted ${filename}` : `kept ${filename}`)] };
    },
  );
  server.addTool(
    {
      name: 'multi_input',
      description: 'Asks two questions at once while it runs',
      inputSchema: NO_ARGS,
      execution: { taskSupport: 'optional' },
    },
    async (_args, ctx) => {
      await work(100, ctx);
      const { name, confirm } = await ctx.ask({
        name: {
          method: 'elicitation/create',
          params: {
            message: 'Your name?',
            requestedSchema: oneField('name', 'string'),
          },
        },
        confirm: {
          method: 'elicitation/create',
          params: { message: 'Proceed?', requestedSchema: oneField('confirm', 'boolean') },
        },
      });
      return {
        content: [text(`name ${String(name.content?.name)}, proceed ${String(confirm.content?.confirm)}`)],
      };
    },
  );
  server.addTool(
    {
      name: 'test_tool_with_task',
      description: 'Asks for a name (multi-round-trip), then works on it as a task',
      inputSchema: NO_ARGS,
      execution: { taskSupport: 'required' },
    },
    async (_args, ctx) => {
      const answer = await ctx.elicit('What is your name?', oneField('name', 'string'), { key: 'user_name' });
      await work(300, ctx);
      return { content: [text(`Hello, ${String(answer.content?.name)}! Your task is done.`)] };
    },
  );
}

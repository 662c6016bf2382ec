// The tools, resource and prompt of the fuzz target, registered on any McpServer (from src or dist).
export function addFuzzTools(server, text) {
  server.addTool(
    {
      name: 'echo',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
    (args) => ({ content: [text(args.text)] }),
  );
  server.addTool(
    { name: 'sleep', inputSchema: { type: 'object', properties: { ms: { type: 'integer', maximum: 200 } } } },
    async (args, ctx) => {
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, args.ms ?? 10);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      return { content: [text('slept')] };
    },
  );
  server.addTool({ name: 'boom', inputSchema: { type: 'object' } }, () => {
    throw new Error('boom');
  });
  server.addResource({ uri: 'fuzz://a', name: 'a' }, (uri) => [{ uri, text: 'a' }]);
  server.addPrompt({ name: 'p', arguments: [{ name: 'q', required: true }] }, () => []);
  return server;
}

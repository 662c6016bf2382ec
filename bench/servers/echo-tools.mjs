// The bench's TypeScript echo tool as a `serve --tools-module` file, so the same tool can be measured through
// `entropic-mcp serve --http` beside the C echo plugin.
export function register(server) {
  server.addTool(
    {
      name: 'echo',
      description: 'Echo the text back',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
}

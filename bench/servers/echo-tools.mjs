// The bench's TypeScript echo tool: registered by the TS echo servers, and loaded as a `serve --tools-module`
// file, so the same tool is measured through `entropic-mcp serve --http` beside the C echo plugin.
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

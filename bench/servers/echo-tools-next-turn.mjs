// The TypeScript echo tool as a `serve --tools-module` file that answers on the next turn of the event loop, as a
// tool waiting on any I/O does: the C plugin rows are compared with it to show what the plugin path costs beyond
// the server's own cost of an asynchronous call.
export function register(server) {
  server.addTool(
    {
      name: 'echo',
      description: 'Echo the text back on the next event-loop turn',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
    ({ text }) =>
      new Promise((resolve) => setImmediate(() => resolve({ content: [{ type: 'text', text }] }))),
  );
}

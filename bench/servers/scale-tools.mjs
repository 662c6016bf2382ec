// Tools for the scale workloads (`serve --tools-module`): an echo, and a tool busy on the CPU for 1 ms per call.
export function register(server) {
  server.addTool({ name: 'scale.echo' }, (args) => ({
    content: [{ type: 'text', text: String(args.text ?? 'hello') }],
  }));
  server.addTool({ name: 'scale.spin' }, () => {
    const end = performance.now() + 1;
    let n = 0;
    while (performance.now() < end) n++;
    return { content: [{ type: 'text', text: String(n > 0) }] };
  });
}

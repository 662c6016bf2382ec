// The practical limit: parse each line, answer an echo, batch writes per tick. No MCP at all.
let rest = '';
let out = [];
let scheduled = false;
const flush = () => {
  scheduled = false;
  process.stdout.write(`${out.join('\n')}\n`);
  out = [];
};
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  const text = rest + chunk;
  let start = 0;
  let nl = text.indexOf('\n');
  while (nl !== -1) {
    const msg = JSON.parse(text.slice(start, nl));
    if (msg.id !== undefined) {
      const result =
        msg.method === 'tools/call' ? { content: [{ type: 'text', text: msg.params.arguments.text }] } : {};
      out.push(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    }
    start = nl + 1;
    nl = text.indexOf('\n', start);
  }
  rest = text.slice(start);
});

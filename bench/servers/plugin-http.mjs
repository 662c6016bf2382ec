// `entropic-mcp serve --http` with the C echo plugin (--plugin) or a TypeScript tools module (--tools-module),
// started through serve's `startServe` (what the CLI runs), announcing its port like the other HTTP
// servers. serve speaks stateful Streamable HTTP with SSE answers.
import { parseArgs } from 'node:util';
import { parseServeArgs, startServe } from '@entropic-mcp/serve';

const { values } = parseArgs({
  options: {
    plugin: { type: 'string' },
    'tools-module': { type: 'string' },
    isolation: { type: 'string', default: 'process' },
    port: { type: 'string', default: '0' },
    mode: { type: 'string', default: 'sse' },
  },
});
if (values.mode !== 'sse') throw new Error(`serve speaks stateful SSE only, not --mode ${values.mode}`);
const args = parseServeArgs([
  '--http',
  `127.0.0.1:${values.port}`,
  ...(values.plugin === undefined ? [] : ['--plugin', values.plugin, '--isolation', values.isolation]),
  ...(values['tools-module'] === undefined ? [] : ['--tools-module', values['tools-module']]),
]);
const handle = await startServe(args, { report: () => {} });
process.stdout.write(`${JSON.stringify({ port: Number(new URL(handle.url).port) })}\n`);
process.on('SIGTERM', () => handle.close().then(() => process.exit(0)));

// Command-line options shared by the HTTP echo servers: --port N --mode sse|json|stateless|modern
// (modern: the 2026-07-28 era, each request enveloped, no session).
import { parseArgs } from 'node:util';

export function httpArgs() {
  const { values } = parseArgs({
    options: { port: { type: 'string', default: '0' }, mode: { type: 'string', default: 'sse' } },
  });
  if (!['sse', 'json', 'stateless', 'modern'].includes(values.mode))
    throw new Error(`unknown --mode ${values.mode}`);
  return { port: Number(values.port), mode: values.mode };
}

/** Tell the load generator where we listen (one JSON line on stdout); exit cleanly on SIGTERM. */
export function announce(server) {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
  // Exit normally on SIGTERM so `node --cpu-prof` can write its profile.
  process.on('SIGTERM', () => process.exit(0));
}

export function readBody(req) {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

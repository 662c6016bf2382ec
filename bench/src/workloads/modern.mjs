// The 2026-07-28 era: echo tools/call over stdio (1 and 64 in flight) and Streamable HTTP (1 and 64
// clients), each request carrying the per-request envelope, for the servers that serve that era.
import { MODERN_MODE, modeWorkload } from './http.mjs';
import { stdioWorkload } from './stdio.mjs';

const servesModern = (target) => target.modern === true;

export async function modernWorkload({ stdio, http }, opts, log) {
  log(' stdio, 2026-07-28');
  const tables = await stdioWorkload(stdio.filter(servesModern), opts.stdio, log, 'modern');
  log(' http, 2026-07-28');
  tables.push(...(await modeWorkload(http.filter(servesModern), MODERN_MODE, opts.http, log)));
  return tables;
}

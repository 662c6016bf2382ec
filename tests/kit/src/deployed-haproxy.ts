/**
 * The HAProxy that docs/scaling.md ships, run for tests: its ```haproxy block is read from the guide and
 * only the addresses change (the frontend binds a free port on loopback; one `server nodeI` line per
 * backend, with the options of the guide's server lines), plus `X-Served-By: nodeI` on every answer so
 * a test can tell which process gave it. The guide's configuration is therefore the tested one.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type HaproxyProcess, runHaproxy } from './haproxy.js';
import { REPO_ROOT } from './serve-process.js';

const GUIDE = join(REPO_ROOT, 'docs', 'scaling.md');

/** The guide's HAProxy configuration, with `port` as the frontend and `backends` as the servers. */
export function deployedHaproxyConfig(port: number, backends: readonly number[]): string {
  const block = /```haproxy\n([\s\S]*?)```/.exec(readFileSync(GUIDE, 'utf8'))?.[1];
  if (block === undefined) throw new Error(`${GUIDE} has no \`\`\`haproxy block`);
  const lines = block.split('\n').map((line) => line.replace(/\s+#.*$/, '').trimEnd());
  const server = lines.find((line) => /^\s+server\s/.test(line));
  const options = server?.trim().split(/\s+/).slice(3).join(' ');
  if (options === undefined) throw new Error(`the haproxy block of ${GUIDE} has no server line`);
  const out: string[] = [];
  for (const line of lines) {
    if (line === '' || /^\s+server\s/.test(line)) continue;
    if (/^\s+bind\s/.test(line)) out.push(`  bind 127.0.0.1:${port}`);
    else out.push(line);
    if (/^backend\s/.test(line)) {
      out.push('  http-response set-header X-Served-By %[srv_name]');
      out.push(...backends.map((p, i) => `  server node${i} 127.0.0.1:${p} ${options}`));
    }
  }
  if (process.env.DEBUG_HAPROXY_LOG) {
    out.splice(out.indexOf('global') + 1, 0, `  log ${process.env.DEBUG_HAPROXY_LOG} local0`);
    out.splice(out.indexOf('defaults') + 1, 0, '  log global', '  option httplog');
  }
  return `${out.join('\n')}\n`;
}

/** Start HAProxy with the guide's configuration in front of `backends`. */
export function startDeployedHaproxy(backends: readonly number[]): Promise<HaproxyProcess> {
  return runHaproxy((port) => deployedHaproxyConfig(port, backends));
}

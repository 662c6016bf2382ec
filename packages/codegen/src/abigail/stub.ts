// The stub library's C source, derived from the headers themselves so that it never restates a signature.
//
// gcc's -aux-info lists every function prototype a translation unit sees, in canonical form. Each one
// declared under the include folder becomes a definition with unnamed parameters (valid C2x) and a body
// that never returns, so any return type compiles. Two exported objects pull the state-provider struct
// and the error enum into the DWARF, where abidw finds them.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { runTool } from './tools.js';

/** The header every plugin includes; the stub includes it the same way. */
export const PLUGIN_HEADER = 'entropic/interfaces/i_mcp_server.h';

/** Objects the stub exports so the struct layout and the enum values land in the ABI dump. */
export const STUB_OBJECTS = [
  { type: 'entropic_state_provider_t', name: 'entropic_abi_state_provider' },
  { type: 'entropic_error_t', name: 'entropic_abi_error_code' },
] as const;

export interface Prototype {
  name: string;
  /** Canonical prototype without `extern` and the closing semicolon. */
  text: string;
  /** Header (relative to the include folder) and line that declare it. */
  where: string;
}

const AUX_LINE = /^\/\* (.+?):(\d+):\w+ \*\/ extern (.+\b([A-Za-z_]\w*) \(.*\));$/;

/** The prototypes of every function the include folder's headers declare, read through gcc. */
export function headerPrototypes(includeDir: string, workDir: string): Prototype[] {
  const inc = resolve(includeDir);
  const root = inc + sep;
  const probe = join(workDir, 'probe.c');
  const aux = join(workDir, 'probe.aux');
  writeFileSync(probe, `#include <${PLUGIN_HEADER}>\n`);
  const r = runTool('gcc', ['-std=c2x', '-fsyntax-only', `-I${inc}`, '-aux-info', aux, probe]);
  if (r.status !== 0) throw new Error(`the headers in ${includeDir} do not compile:\n${r.stderr.trim()}`);
  const out: Prototype[] = [];
  for (const line of readFileSync(aux, 'utf8').split('\n')) {
    const m = AUX_LINE.exec(line);
    if (!m) continue;
    const file = resolve(m[1]!);
    if (!file.startsWith(root)) continue;
    out.push({ name: m[4]!, text: m[3]!, where: `${file.slice(root.length)}:${m[2]}` });
  }
  return out;
}

/** C source of the stub: one trivial definition per declared function plus the probe objects. */
export function renderStubSource(prototypes: Prototype[]): string {
  const lines = [`#include <${PLUGIN_HEADER}>`, ''];
  for (const p of prototypes) lines.push(`${p.text} { __builtin_unreachable(); }`);
  lines.push('');
  for (const o of STUB_OBJECTS) lines.push(`${o.type} ${o.name};`);
  return `${lines.join('\n')}\n`;
}

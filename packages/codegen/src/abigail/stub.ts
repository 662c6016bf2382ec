// The stub library's C source, derived from the headers themselves so that it never restates a signature.
//
// gcc's -aux-info lists every function prototype a translation unit sees, in canonical form. Each one
// declared under the include folder becomes a definition with unnamed parameters (valid C2x) and a body
// that never returns, so any return type compiles. One exported object per struct and enum typedef pulls
// their layouts and values into the DWARF, where abidw finds them. The stub includes every header, so an
// extension header (the plugin context) is dumped beside the plugin interface.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { runTool } from './tools.js';

/** The header every plugin includes; the stub includes it the same way. */
export const PLUGIN_HEADER = 'entropic/interfaces/i_mcp_server.h';

/**
 * Objects the stub exports so struct layouts and enum values land in the ABI dump, under names kept from
 * the first reference; any other struct or enum typedef gets `entropic_abi_obj_<typedef>`.
 */
export const STUB_OBJECTS = [
  { type: 'entropic_state_provider_t', name: 'entropic_abi_state_provider' },
  { type: 'entropic_error_t', name: 'entropic_abi_error_code' },
] as const;

/** Every header below the include folder, as `<...>` paths, sorted (the plugin header first). */
export function headerPaths(includeDir: string): string[] {
  const inc = resolve(includeDir);
  const all = readdirSync(inc, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.h'))
    .map((e) => relative(inc, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
  return [PLUGIN_HEADER, ...all.filter((p) => p !== PLUGIN_HEADER)];
}

/** The struct and enum typedefs the headers declare (`} name;` closing a `typedef struct {` or enum). */
export function headerTypedefs(includeDir: string): string[] {
  const names: string[] = [];
  for (const path of headerPaths(includeDir)) {
    const text = readFileSync(join(resolve(includeDir), path), 'utf8');
    for (const m of text.matchAll(/^\} (\w+);$/gm)) names.push(m[1]!);
  }
  return names;
}

/** The objects the stub defines for these typedefs. */
export function stubObjects(typedefs: readonly string[]): { type: string; name: string }[] {
  return typedefs.map((type) => {
    const known = STUB_OBJECTS.find((o) => o.type === type);
    return { type, name: known?.name ?? `entropic_abi_obj_${type}` };
  });
}

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
  writeFileSync(
    probe,
    headerPaths(inc)
      .map((h) => `#include <${h}>\n`)
      .join(''),
  );
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
export function renderStubSource(
  prototypes: Prototype[],
  headers: readonly string[],
  typedefs: readonly string[],
): string {
  const lines = [...headers.map((h) => `#include <${h}>`), ''];
  for (const p of prototypes) lines.push(`${p.text} { __builtin_unreachable(); }`);
  lines.push('');
  for (const o of stubObjects(typedefs)) lines.push(`${o.type} ${o.name};`);
  return `${lines.join('\n')}\n`;
}

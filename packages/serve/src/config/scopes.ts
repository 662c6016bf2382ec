// The `scopes` key of a plugin entry: who may see and call its tools. A list is for every tool of the plugin; a
// mapping is by the plugin's own tool name, `"*"` for the others. A caller must hold every scope listed.

import { isRecord, type Path, type Source } from './source.js';

/** Scopes for every tool, or by tool name (`"*"`: every other tool). */
export type ScopesSetting = readonly string[] | Readonly<Record<string, readonly string[]>>;

function scopeList(source: Source, where: string, path: Path, value: unknown): string[] {
  if (!Array.isArray(value)) {
    throw source.error(`${where} must be a list of scopes, e.g. [read, admin]`, path);
  }
  return value.map((scope, i) => {
    if (typeof scope !== 'string' || scope === '' || /\s/.test(scope))
      throw source.error(
        `${where}[${i}] must be one scope: a non-empty string without spaces, got ${JSON.stringify(scope)}`,
        [...path, i],
      );
    return scope;
  });
}

/** `scopes: [read]`, or `scopes: { "*": [read], reset: [admin] }`, at `path`. */
export function parseScopes(source: Source, where: string, path: Path, value: unknown): ScopesSetting {
  if (!isRecord(value)) return scopeList(source, where, path, value);
  const out: Record<string, string[]> = {};
  for (const [tool, list] of Object.entries(value))
    out[tool] = scopeList(source, `${where}.${tool}`, [...path, tool], list);
  return out;
}

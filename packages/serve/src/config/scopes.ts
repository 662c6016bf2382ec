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

/** What of a plugin entry its scopes cover: `all its tools`, or the tools its mapping names (`"*"`: every other tool). */
function scopedTools(setting: ScopesSetting): string | undefined {
  if (Array.isArray(setting)) return setting.length > 0 ? 'all its tools' : undefined;
  const named = Object.entries(setting as Readonly<Record<string, readonly string[]>>)
    .filter(([, list]) => list.length > 0)
    .map(([tool]) => tool);
  const others = named.includes('*') ? ['every other tool'] : [];
  const listed = [...named.filter((tool) => tool !== '*'), ...others];
  return listed.length > 0 ? listed.join(', ') : undefined;
}

/**
 * The start-up warning for plugins with `scopes:` served without `--auth-*`: no caller then holds a scope, so
 * their scoped tools are hidden from everyone. Undefined when auth is on or no plugin asks for a scope.
 */
export function scopesWithoutAuthWarning(
  plugins: readonly { readonly path: string; readonly scopes?: ScopesSetting }[],
  authOn: boolean,
): string | undefined {
  if (authOn) return undefined;
  const scoped = plugins.flatMap((p) => {
    const tools = p.scopes === undefined ? undefined : scopedTools(p.scopes);
    return tools === undefined ? [] : [`${p.path} (${tools})`];
  });
  if (scoped.length === 0) return undefined;
  return (
    `entropic-mcp serve: warning: scopes: is set for ${scoped.join('; ')} but no --auth-* option is given: ` +
    'no caller holds a scope, so those tools are hidden from everyone; turn on auth with --http and ' +
    '--auth-token-file FILE (tokens with the scopes they grant) or --auth-jwks URL --auth-issuer ISS ' +
    '--auth-audience AUD, or remove the scopes\n'
  );
}

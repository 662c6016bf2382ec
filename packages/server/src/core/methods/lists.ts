/**
 * tools/list, prompts/list, resources/list and resources/templates/list, the same in both eras: one page of
 * the registry ordered by name (or URI), so every process behind one endpoint, and every cache, sees one order.
 * resources/list adds what each resource template's `list` callback names, in the same URI order.
 * Each list holds what the caller may see, and is paged after filtering: a page is full unless it is
 * the last, and a cursor is an offset into that caller's list.
 */

import type { MethodContext, MethodRun } from '../host.js';
import { page } from '../pagination.js';
import { andThen } from '../params.js';
import type { TemplateEntry } from '../registry.js';
import { wireOf } from '../registry.js';

export type ListKey = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';

export function listOf(key: ListKey): MethodRun {
  if (key === 'resources') return listResources;
  return (req) => {
    const server = req.session.server;
    const registry = key === 'tools' ? server.tools : key === 'prompts' ? server.prompts : server.templates;
    return page(key, registry.listFor(req), req.params?.cursor, server.options.pageSize);
  };
}

function listResources(req: MethodContext): unknown {
  const server = req.session.server;
  const fixed = server.resources.listFor(req);
  const listers: TemplateEntry[] = [];
  for (const template of server.templates.entries.values())
    if (template.list !== undefined && (template.visible === undefined || template.visible(req)))
      listers.push(template);
  if (listers.length === 0) return page('resources', fixed, req.params?.cursor, server.options.pageSize);
  const listed = listers.map((template) =>
    andThen((template.list as NonNullable<TemplateEntry['list']>)(req), (out) => resourcesOf(template, out)),
  );
  return andThen(Promise.all(listed), (lists) => {
    const byUri = new Map<string, Record<string, unknown>>();
    for (const list of lists)
      for (const item of list) if (!byUri.has(item.uri as string)) byUri.set(item.uri as string, item);
    for (const item of fixed) byUri.set(item.uri as string, item);
    const all = [...byUri.keys()].sort().map((uri) => byUri.get(uri) as Record<string, unknown>);
    return page('resources', all, req.params?.cursor, server.options.pageSize);
  });
}

/** What one template's `list` answered, each resource checked to be one of the template's URIs. */
function resourcesOf(template: TemplateEntry, out: unknown): Record<string, unknown>[] {
  const items = Array.isArray(out) ? out : (out as { resources?: unknown } | null)?.resources;
  const name = template.wire.uriTemplate as string;
  if (!Array.isArray(items)) {
    throw new Error(`the list of resource template ${name} returned neither an array nor { resources }`);
  }
  return items.map((item: { uri?: unknown; name?: unknown }) => {
    if (typeof item?.uri !== 'string' || typeof item.name !== 'string')
      throw new Error(
        `the list of resource template ${name} returned a resource without a string uri and name`,
      );
    if (template.template.match(item.uri) === undefined)
      throw new Error(
        `the list of resource template ${name} returned ${item.uri}, which the template does not match`,
      );
    return wireOf(item);
  });
}

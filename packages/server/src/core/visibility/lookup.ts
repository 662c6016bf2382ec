/**
 * Finding what a request names, for that request's caller: the tool of tools/call, the prompt of
 * prompts/get and of a completion, the resource or template behind a URI. A hidden item is refused
 * here with the very error an unknown one gets: the one wording per refusal lives in this file.
 */

import { ErrorCode, McpError } from '../errors.js';
import type { PromptEntry, Registry, ResourceEntry, TemplateEntry, ToolEntry } from '../registry.js';
import type { Caller } from '../types.js';
import type { UriVariables } from '../uri-template.js';

/** The registries a lookup reads (McpServer fits). */
export interface Registries {
  readonly tools: Registry<ToolEntry>;
  readonly prompts: Registry<PromptEntry>;
  readonly resources: Registry<ResourceEntry>;
  readonly templates: Registry<TemplateEntry>;
}

/** The tool `name` as `caller` sees it; -32602 "Unknown tool" when it is absent or hidden. */
export function toolFor(server: Registries, caller: Caller, name: string): ToolEntry {
  const entry = server.tools.find(name, caller);
  if (entry === undefined) {
    throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`, { pointer: '/params/name' });
  }
  return entry;
}

/** The prompt `name` as `caller` sees it; -32602 "Unknown prompt" pointing at `pointer` otherwise. */
export function promptFor(
  server: Registries,
  caller: Caller,
  name: unknown,
  pointer = '/params/name',
): PromptEntry {
  const entry = typeof name === 'string' ? server.prompts.find(name, caller) : undefined;
  if (entry === undefined) {
    throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${String(name)}`, { pointer });
  }
  return entry;
}

/** The resource template `uriTemplate` of a completion ref; -32602 naming it when absent or hidden. */
export function templateFor(server: Registries, caller: Caller, uriTemplate: unknown): TemplateEntry {
  const entry = typeof uriTemplate === 'string' ? server.templates.find(uriTemplate, caller) : undefined;
  if (entry === undefined) {
    throw new McpError(ErrorCode.InvalidParams, `Unknown resource template: ${String(uriTemplate)}`, {
      pointer: '/params/ref/uri',
    });
  }
  return entry;
}

export type Readable =
  | { readonly resource: ResourceEntry; readonly template?: undefined }
  | { readonly template: TemplateEntry; readonly variables: UriVariables; readonly resource?: undefined };

/** What serves `uri` for `caller` (its resource, else the first visible template matching it), if any. */
export function readableFor(server: Registries, caller: Caller, uri: string): Readable | undefined {
  const resource = server.resources.find(uri, caller);
  if (resource !== undefined) return { resource };
  // A hidden resource is as absent as an unknown one: a template matching its URI serves it.
  for (const template of server.templates.entries.values()) {
    if (template.visible !== undefined && !template.visible(caller)) continue;
    const variables = template.template.match(uri);
    if (variables !== undefined) return { template, variables };
  }
  return undefined;
}

/** What serves `uri` for `caller`; -32002 "Resource not found" when nothing does or it is hidden. */
export function requireReadable(server: Registries, caller: Caller, uri: string): Readable {
  const found = readableFor(server, caller, uri);
  if (found === undefined)
    throw new McpError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
  return found;
}

/** Whether something serves `uri` but not for `caller`: such a subscriber gets no update of it. */
export function hiddenFrom(server: Registries, caller: Caller, uri: string): boolean {
  if (readableFor(server, caller, uri) !== undefined) return false;
  if (server.resources.has(uri)) return true;
  for (const template of server.templates.entries.values())
    if (template.template.match(uri) !== undefined) return true;
  return false;
}

/**
 * What a server declares and what it answers, decided in one place: each capability's rule (from the
 * options and what is or was registered: a kind, once declared, stays declared, so a client told of it
 * can still list it when it empties), the capabilities object built from those rules (the initialize
 * and `server/discover` results), and the refusal of a method whose capability is not declared.
 */

import { ErrorCode, McpError } from './errors.js';
import type { Era } from './handler-types.js';
import type { ResolvedOptions } from './options.js';
import type { PromptEntry, Registry, ResourceEntry, TemplateEntry, ToolEntry } from './registry.js';

/** A capability a method can need: a top-level key, or `resources.subscribe`. */
export type Capability =
  | 'logging'
  | 'completions'
  | 'prompts'
  | 'resources'
  | 'resources.subscribe'
  | 'tools';

/** What the rules read of a server: its options and registries. */
export interface Declaring {
  readonly options: ResolvedOptions;
  readonly tools: Registry<ToolEntry>;
  readonly resources: Registry<ResourceEntry>;
  readonly templates: Registry<TemplateEntry>;
  readonly prompts: Registry<PromptEntry>;
  /** The declared extensions (`capabilities.extensions`), from the extension registry. */
  readonly extensions: { capability(): Record<string, unknown> | undefined };
  /** The tasks, once switched on (2025-11-25 declares them as a core capability). */
  readonly tasks: object | undefined;
}

function completions(server: Declaring): boolean {
  if (server.options.completions !== undefined) return server.options.completions;
  for (const p of server.prompts.entries.values()) if (p.complete) return true;
  for (const t of server.templates.entries.values()) if (t.complete) return true;
  return false;
}

const RULES: Readonly<Record<Capability, (server: Declaring) => boolean>> = {
  logging: (s) => s.options.logging,
  completions,
  prompts: (s) => s.prompts.everHeld || s.options.advertise.prompts,
  resources: (s) =>
    s.resources.everHeld || s.templates.everHeld || s.options.advertise.resources || s.options.subscribe,
  'resources.subscribe': (s) => s.options.subscribe,
  tools: (s) => s.tools.everHeld || s.options.advertise.tools,
};

/** Whether `server` declares `capability` now. */
export function declares(server: Declaring, capability: Capability): boolean {
  return RULES[capability](server);
}

/**
 * The capabilities object of the initialize (`legacy`) and `server/discover` (`modern`) results, from
 * the rules above. They differ in one thing: 2025-11-25 tasks are a core capability, while 2026-07-28
 * has only the tasks extension (declared with the other extensions).
 */
export function declaredCapabilities(server: Declaring, era: Era): Record<string, unknown> {
  const o = server.options;
  const caps: Record<string, unknown> = {};
  const extensions = server.extensions.capability();
  if (extensions !== undefined) caps.extensions = extensions;
  if (server.tasks !== undefined && era === 'legacy') {
    caps.tasks = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
  }
  const listChanged = o.listChanged ? { listChanged: true } : {};
  if (o.experimental) caps.experimental = o.experimental;
  if (declares(server, 'logging')) caps.logging = {};
  if (declares(server, 'completions')) caps.completions = {};
  if (declares(server, 'prompts')) caps.prompts = { ...listChanged };
  if (declares(server, 'resources')) {
    caps.resources = declares(server, 'resources.subscribe')
      ? { subscribe: true, ...listChanged }
      : { ...listChanged };
  }
  if (declares(server, 'tools')) caps.tools = { ...listChanged };
  return caps;
}

/** -32601 for `method` when `server` does not declare the capability it needs; the one wording. */
export function requireDeclared(server: Declaring, method: string, capability: Capability | undefined): void {
  if (capability === undefined || declares(server, capability)) return;
  throw new McpError(
    ErrorCode.MethodNotFound,
    `Method not found: ${method} (this server declares no ${capability} capability)`,
  );
}

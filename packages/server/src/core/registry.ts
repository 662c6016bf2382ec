/**
 * The four registries a server owns and every session shares: tools, resources, resource
 * templates, prompts. Each entry keeps its wire descriptor ready so list requests only slice.
 */

import type {
  Completer,
  HandlerContext,
  PromptDefinition,
  PromptHandler,
  ResourceReader,
  ResourceTemplateDefinition,
  TemplateLister,
  TemplateReader,
  ToolHandler,
} from './handler-types.js';
import type { TaskSupport } from './tasks/types.js';
import type { Check } from './tool-schema.js';
import type { ResourceDefinition, ToolDefinition } from './types.js';
import type { UriTemplate } from './uri-template.js';

export interface ToolEntry {
  wire: Record<string, unknown>;
  handler: ToolHandler;
  validateInput: Check | undefined;
  validateOutput: Check | undefined;
  /** OAuth scopes a caller needs (checked by authenticated HTTP transports), if any. */
  scopes: readonly string[] | undefined;
  /** Whether its calls run as tasks. */
  taskSupport: TaskSupport;
}
export interface ResourceEntry {
  wire: Record<string, unknown>;
  read: ResourceReader;
}
export interface TemplateEntry {
  wire: Record<string, unknown>;
  template: UriTemplate;
  read: TemplateReader;
  list: TemplateLister | undefined;
  complete: Record<string, Completer> | undefined;
}
export interface PromptEntry {
  wire: Record<string, unknown>;
  required: string[];
  /** The argsSchema's check, when the prompt has one. */
  validate: Check | undefined;
  handler: (args: Record<string, unknown>, ctx: HandlerContext) => ReturnType<PromptHandler>;
  complete: Record<string, Completer> | undefined;
}

export type ToolDef = ToolDefinition;
export type ResourceDef = ResourceDefinition;
export type TemplateDef = ResourceTemplateDefinition;
export type PromptDef = PromptDefinition;

/** A keyed, ordered collection with a cached array of wire descriptors. */
export class Registry<E extends { wire: Record<string, unknown> }> {
  readonly entries = new Map<string, E>();
  /** Whether anything was ever registered: a capability once declared stays declared (see declared.ts). */
  everHeld = false;
  private sortedCache: Record<string, unknown>[] | undefined;

  get size(): number {
    return this.entries.size;
  }

  get(key: string): E | undefined {
    return this.entries.get(key);
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  set(key: string, entry: E): void {
    this.entries.set(key, entry);
    this.everHeld = true;
    this.sortedCache = undefined;
  }

  delete(key: string, entry: E): boolean {
    if (this.entries.get(key) !== entry) return false;
    this.entries.delete(key);
    this.sortedCache = undefined;
    return true;
  }

  /** The wire descriptors ordered by key (name or URI): the same order wherever the server runs. */
  sorted(): Record<string, unknown>[] {
    if (!this.sortedCache) {
      const keys = [...this.entries.keys()].sort();
      this.sortedCache = keys.map((key) => (this.entries.get(key) as E).wire);
    }
    return this.sortedCache;
  }
}

/** The descriptor as sent on the wire: the given fields minus undefined ones and local-only keys. */
export function wireOf(definition: object, omit: readonly string[] = []): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(definition)) {
    if (value !== undefined && !omit.includes(key)) wire[key] = value;
  }
  return wire;
}

/**
 * The four registries a server owns and every session shares: tools, resources, resource
 * templates, prompts. Each entry keeps its wire descriptor ready so list requests only slice, and
 * its visibility rule, so a caller's list and lookups hold only what that caller may see.
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
import type { Caller, ResourceDefinition, ToolDefinition } from './types.js';
import type { UriTemplate } from './uri-template.js';

/** The compiled rule of one registration: true when `caller` may see the item (made by visibility/rule.ts). */
export type VisibilityRule = (caller: Caller) => boolean;

/** What every entry holds: its wire descriptor and who may see it (undefined: everyone). */
export interface Entry {
  wire: Record<string, unknown>;
  visible: VisibilityRule | undefined;
}

export interface ToolEntry extends Entry {
  handler: ToolHandler;
  validateInput: Check | undefined;
  validateOutput: Check | undefined;
  /** Whether its calls run as tasks. */
  taskSupport: TaskSupport;
}
export interface ResourceEntry extends Entry {
  read: ResourceReader;
}
export interface TemplateEntry extends Entry {
  template: UriTemplate;
  read: TemplateReader;
  list: TemplateLister | undefined;
  complete: Record<string, Completer> | undefined;
}
export interface PromptEntry extends Entry {
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
export class Registry<E extends Entry> {
  readonly entries = new Map<string, E>();
  /** Whether anything was ever registered: a capability once declared stays declared (see declared.ts). */
  everHeld = false;
  /** Counts every change: a view taken at one version is still current while it stays. */
  version = 0;
  /** How many entries have a visibility rule (none: every caller sees the same list). */
  private ruled = 0;
  private sortedCache: E[] | undefined;
  /** Entries added, replaced or removed since the last `takeTouched()`. */
  private touched: E[] = [];
  /** What the last `takeTouched()` returned: the entries of the latest announced change. */
  lastTouched: readonly E[] = [];

  get size(): number {
    return this.entries.size;
  }

  get(key: string): E | undefined {
    return this.entries.get(key);
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Whether some entry shows itself to some callers only. */
  get filtered(): boolean {
    return this.ruled > 0;
  }

  set(key: string, entry: E): void {
    const old = this.entries.get(key);
    if (old !== undefined) this.touched.push(old);
    this.touched.push(entry);
    if (old?.visible !== undefined) this.ruled--;
    if (entry.visible !== undefined) this.ruled++;
    this.entries.set(key, entry);
    this.everHeld = true;
    this.changed();
  }

  delete(key: string, entry: E): boolean {
    if (this.entries.get(key) !== entry) return false;
    if (entry.visible !== undefined) this.ruled--;
    this.touched.push(entry);
    this.entries.delete(key);
    this.changed();
    return true;
  }

  private changed(): void {
    this.version++;
    this.sortedCache = undefined;
  }

  /** The entries changed since the last call (kept as `lastTouched`). */
  takeTouched(): readonly E[] {
    this.lastTouched = this.touched;
    this.touched = [];
    return this.lastTouched;
  }

  /** The entry of `key` when `caller` may see it; a hidden entry is as absent as an unknown one. */
  find(key: string, caller: Caller): E | undefined {
    const entry = this.entries.get(key);
    return entry === undefined || entry.visible === undefined || entry.visible(caller) ? entry : undefined;
  }

  /** The entries ordered by key (name or URI): the same order wherever the server runs. */
  sortedEntries(): readonly E[] {
    if (!this.sortedCache) {
      const keys = [...this.entries.keys()].sort();
      this.sortedCache = keys.map((key) => this.entries.get(key) as E);
    }
    return this.sortedCache;
  }

  /**
   * The wire descriptors `caller` may see, in key order. Without rules every caller shares one cached
   * array, so two views of one version are the same array.
   */
  listFor(caller: Caller): readonly Record<string, unknown>[] {
    const sorted = this.sortedEntries();
    if (this.ruled === 0) return this.wires(sorted);
    const out: Record<string, unknown>[] = [];
    for (const entry of sorted)
      if (entry.visible === undefined || entry.visible(caller)) out.push(entry.wire);
    return out;
  }

  private wireCache: { of: readonly E[]; wires: Record<string, unknown>[] } | undefined;

  private wires(sorted: readonly E[]): Record<string, unknown>[] {
    if (this.wireCache?.of !== sorted) this.wireCache = { of: sorted, wires: sorted.map((e) => e.wire) };
    return this.wireCache.wires;
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

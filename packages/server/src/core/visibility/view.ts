/**
 * What one caller last saw of each list (tools, prompts, resources with their templates), kept so a
 * change is announced only to those whose list it changed: a 2025 session (its caller is that of its
 * latest request, so a refreshed token with other scopes counts) or a 2026-07-28 listen stream.
 */

import type { Kind } from '../host.js';
import type { Entry } from '../registry.js';
import type { Caller } from '../types.js';
import type { Registries } from './lookup.js';
import { ANONYMOUS, sameCaller } from './rule.js';

export const KINDS: readonly Kind[] = ['tools', 'prompts', 'resources'];

interface Seen {
  /** The registries' versions when it was taken (their sum only grows). */
  readonly version: number;
  readonly items: readonly (readonly Record<string, unknown>[])[];
}

/** The entries of `kind` changed: taken from the registries (`take`), or the latest taken. */
export function touchedOf(server: Registries, kind: Kind, takeNow: boolean): readonly Entry[] {
  const regs =
    kind === 'tools'
      ? [server.tools]
      : kind === 'prompts'
        ? [server.prompts]
        : [server.resources, server.templates];
  return regs.flatMap((reg) => (takeNow ? reg.takeTouched() : reg.lastTouched) as readonly Entry[]);
}

function versionOf(server: Registries, kind: Kind): number {
  if (kind === 'tools') return server.tools.version;
  if (kind === 'prompts') return server.prompts.version;
  return server.resources.version + server.templates.version;
}

function take(server: Registries, caller: Caller, kind: Kind): Seen {
  const version = versionOf(server, kind);
  if (kind === 'tools') return { version, items: [server.tools.listFor(caller)] };
  if (kind === 'prompts') return { version, items: [server.prompts.listFor(caller)] };
  return { version, items: [server.resources.listFor(caller), server.templates.listFor(caller)] };
}

function same(a: Seen, b: Seen): boolean {
  return a.items.every((list, i) => {
    const other = b.items[i] as readonly Record<string, unknown>[];
    return list === other || (list.length === other.length && list.every((item, j) => item === other[j]));
  });
}

export class View {
  private seen = new Map<Kind, Seen>();

  constructor(
    private readonly server: Registries,
    public caller: Caller = ANONYMOUS,
  ) {}

  /** Remember what the caller sees of `kinds` now. */
  take(kinds: readonly Kind[] = KINDS): void {
    for (const kind of kinds) this.seen.set(kind, take(this.server, this.caller, kind));
  }

  /** Whether no registry of `kind` changed since the view was taken (a change came from elsewhere). */
  current(kind: Kind): boolean {
    return this.seen.get(kind)?.version === versionOf(this.server, kind);
  }

  /**
   * Look again at `kind`: true when what the caller sees differs from before (or was never taken), or
   * when one of the `touched` entries (added, updated or removed since) is one the caller may see.
   */
  refresh(kind: Kind, touched: readonly Entry[] = []): boolean {
    const before = this.seen.get(kind);
    const now = take(this.server, this.caller, kind);
    this.seen.set(kind, now);
    if (before === undefined || !same(before, now)) return true;
    return touched.some((entry) => entry.visible === undefined || entry.visible(this.caller));
  }

  /** The entries of `kind` changed in the latest announced change. */
  lastTouched(kind: Kind): readonly Entry[] {
    return touchedOf(this.server, kind, false);
  }

  /**
   * The caller of a new request: the kinds whose lists it changed (none when it is the same caller,
   * or before the first view). The first call takes the view.
   */
  observe(caller: Caller): Kind[] {
    if (this.seen.size === 0) {
      this.caller = caller;
      this.take();
      return [];
    }
    if (sameCaller(this.caller, caller)) return [];
    this.caller = caller;
    return KINDS.filter((kind) => this.refresh(kind));
  }
}

/**
 * Announcing list changes: the notification of each kind, and the one rule for who gets it after a
 * registry or visibility change (the sessions whose caller's list it changed).
 */

import type { Kind } from '../host.js';
import type { Entry } from '../registry.js';
import type { View } from './view.js';

export const LIST_CHANGED: Readonly<Record<Kind, string>> = {
  tools: 'notifications/tools/list_changed',
  resources: 'notifications/resources/list_changed',
  prompts: 'notifications/prompts/list_changed',
};

/** What announcing needs of a 2025 session (SessionImpl fits). */
export interface Viewing {
  readonly client: unknown;
  readonly view: View;
  notify(method: string): void;
}

/**
 * Send `kind`'s list_changed to each initialized session whose caller's list of it changed, or that may
 * see one of the `touched` entries (an item added and removed at once still counts for who could see it).
 */
export function announce(sessions: Iterable<Viewing>, kind: Kind, touched: readonly Entry[] = []): void {
  for (const session of sessions) {
    if (session.client !== undefined && session.view.refresh(kind, touched))
      session.notify(LIST_CHANGED[kind]);
  }
}

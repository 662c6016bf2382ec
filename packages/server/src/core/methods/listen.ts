/**
 * `subscriptions/listen` (2026-07-28): one long-lived request whose stream carries the change
 * notifications the client opted in to. Changes arrive through the server's subscription bus; a list
 * change made here reaches the stream only when it changed what the stream's caller sees.
 */

import type { Kind, MethodContext } from '../host.js';
import { META_SUBSCRIPTION_ID } from '../modern/envelope.js';
import { invalidParams } from '../params.js';
import type { SubscriptionEvent } from '../subscription-bus.js';
import { hiddenFrom } from '../visibility/lookup.js';
import { callerOf } from '../visibility/rule.js';
import { View } from '../visibility/view.js';

export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

const FLAGS = ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const;

const KIND_OF: Record<(typeof FLAGS)[number], Kind> = {
  toolsListChanged: 'tools',
  promptsListChanged: 'prompts',
  resourcesListChanged: 'resources',
};

const NOTIFICATION: Record<SubscriptionEvent['type'], string> = {
  toolsListChanged: 'notifications/tools/list_changed',
  promptsListChanged: 'notifications/prompts/list_changed',
  resourcesListChanged: 'notifications/resources/list_changed',
  resourceUpdated: 'notifications/resources/updated',
};

/**
 * The client's filter, checked: known fields only, each of its type (-32602 naming the field).
 * `extra` are the fields extensions added; they check their own values.
 */
export function readFilter(value: unknown, extra: ReadonlySet<string> = new Set()): SubscriptionFilter {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidParams(
      'subscriptions/listen needs params.notifications as an object',
      '/params/notifications',
    );
  }
  const filter = value as Record<string, unknown>;
  for (const [key, v] of Object.entries(filter)) {
    const pointer = `/params/notifications/${key}`;
    if ((FLAGS as readonly string[]).includes(key)) {
      if (typeof v !== 'boolean') throw invalidParams(`notifications.${key} must be a boolean`, pointer);
    } else if (key === 'resourceSubscriptions') {
      if (!Array.isArray(v) || v.some((uri) => typeof uri !== 'string')) {
        throw invalidParams('notifications.resourceSubscriptions must be an array of URIs', pointer);
      }
    } else if (!extra.has(key)) {
      throw invalidParams(`notifications.${key} is not a notification type this server knows`, pointer);
    }
  }
  return filter as SubscriptionFilter;
}

export function listen(req: MethodContext): Promise<unknown> {
  const server = req.session.server;
  const filters = server.extensions.listenFilters;
  const asked = readFilter(req.params?.notifications, new Set(filters.keys()));
  const granted: SubscriptionFilter & Record<string, unknown> = {};
  if (server.options.listChanged) for (const flag of FLAGS) if (asked[flag] === true) granted[flag] = true;
  if (server.options.subscribe && asked.resourceSubscriptions !== undefined) {
    granted.resourceSubscriptions = asked.resourceSubscriptions;
  }
  for (const [key, filter] of filters) {
    const value = (asked as Record<string, unknown>)[key];
    const grant = value === undefined ? undefined : filter.grant(value, req);
    if (grant !== undefined) granted[key] = grant;
  }
  const uris = new Set(granted.resourceSubscriptions ?? []);
  const meta = { [META_SUBSCRIPTION_ID]: req.requestId };
  req.notify('notifications/subscriptions/acknowledged', { _meta: meta, notifications: granted });
  const extraStops = [...filters]
    .filter(([key]) => granted[key] !== undefined)
    .map(([key, filter]) => filter.start(granted[key], req, meta));
  const caller = callerOf(req.context);
  const view = new View(server, caller);
  const kinds = FLAGS.filter((flag) => granted[flag] === true);
  view.take(kinds.map((flag) => KIND_OF[flag]));
  return new Promise((resolve) => {
    const stop = server.bus.subscribe((event) => {
      if (event.type === 'resourceUpdated') {
        if (uris.has(event.uri) && !hiddenFrom(server, caller, event.uri))
          req.notify(NOTIFICATION.resourceUpdated, { uri: event.uri, _meta: meta });
      } else if (granted[event.type] === true) {
        // Unchanged here since the last look: the change was made elsewhere (another process, or an
        // explicit notify*Changed), and is passed on as it is.
        const kind = KIND_OF[event.type];
        if (view.current(kind) || view.refresh(kind, view.lastTouched(kind)))
          req.notify(NOTIFICATION[event.type], { _meta: meta });
      }
    });
    const stopWatching = server.watchVisibility(() => {
      for (const flag of kinds)
        if (view.refresh(KIND_OF[flag])) req.notify(NOTIFICATION[flag], { _meta: meta });
    });
    const end = (): void => {
      stop();
      stopWatching();
      for (const stopExtra of extraStops) stopExtra();
      stopClosing();
      resolve({ _meta: meta });
    };
    const stopClosing = server.onClosing(end);
    req.signal.addEventListener('abort', end, { once: true });
  });
}

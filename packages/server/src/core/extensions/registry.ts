/**
 * What a server was extended with: the extensions it declares (the one source of
 * `capabilities.extensions` in initialize and server/discover), custom notifications, the hooks
 * around requests, the middleware, the `Mcp-Name` field of custom methods, and extra `subscriptions/listen` filters.
 * Custom request methods themselves live in the server's method tables beside the built-in ones.
 */

import { LocalError } from '../errors.js';
import type { RequestHook } from '../extension-types.js';
import type { Extensions, ListenFilter, NotificationEntry } from '../host.js';
import { hookLayer, type Layer, layerOf } from '../middleware/chain.js';
import type { MiddlewareMatch } from '../middleware/types.js';

/** Extension ids: a reverse-DNS-like prefix, a slash, and a name (as `_meta` keys are named). */
const EXTENSION_ID = /^[A-Za-z0-9][A-Za-z0-9.-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/;

export class ExtensionRegistry implements Extensions {
  readonly #declared = new Map<string, Record<string, unknown>>();
  readonly notifications = new Map<string, NotificationEntry>();
  readonly nameParams = new Map<string, string>();
  readonly listenFilters = new Map<string, ListenFilter>();
  /** The hooks, in the order added; a new array on every change, so a running loop is never disturbed. */
  hooks: readonly RequestHook[] = [];
  /** The middleware (hooks' `before` included), in the order added; a new array on every change. */
  layers: readonly Layer[] = [];

  /** Declare extension `id` with its settings; returns the call that withdraws the declaration. */
  declare(id: string, settings: Record<string, unknown> = {}): () => void {
    if (typeof id !== 'string' || !EXTENSION_ID.test(id)) {
      throw new LocalError(
        'INVALID_ARGUMENT',
        `extension id must look like "vendor.example/name" (a prefix, a slash, a name), got ${JSON.stringify(id)}`,
      );
    }
    if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) {
      throw new LocalError('INVALID_ARGUMENT', `the settings of extension "${id}" must be an object`);
    }
    if (this.#declared.has(id)) {
      throw new LocalError('DUPLICATE_EXTENSION', `extension "${id}" is already declared`);
    }
    this.#declared.set(id, settings);
    return () => {
      if (this.#declared.get(id) === settings) this.#declared.delete(id);
    };
  }

  has(id: string): boolean {
    return this.#declared.has(id);
  }

  /** `capabilities.extensions`, or undefined when nothing is declared. */
  capability(): Record<string, unknown> | undefined {
    if (this.#declared.size === 0) return undefined;
    return Object.fromEntries(this.#declared);
  }

  addHook(hook: RequestHook): () => void {
    if (
      typeof hook !== 'object' ||
      hook === null ||
      (hook.before === undefined && hook.after === undefined)
    ) {
      throw new LocalError('INVALID_ARGUMENT', 'a request hook needs a before or an after function');
    }
    const layer = hookLayer(hook);
    const removeLayer = layer === undefined ? undefined : this.addLayer(layer);
    this.hooks = [...this.hooks, hook];
    return () => {
      removeLayer?.();
      this.hooks = this.hooks.filter((h) => h !== hook);
    };
  }

  /** Add a middleware, run for the requests `match` selects (all when undefined); returns its remover. */
  use(match: MiddlewareMatch | undefined, middleware: unknown): () => void {
    return this.addLayer(layerOf(match, middleware, this.layers.length));
  }

  private addLayer(layer: Layer): () => void {
    this.layers = [...this.layers, layer];
    return () => {
      this.layers = this.layers.filter((l) => l !== layer);
    };
  }

  /** The `Mcp-Name` field of a custom method, if it declared one. */
  nameParam(method: string): string | undefined {
    return this.nameParams.get(method);
  }
}

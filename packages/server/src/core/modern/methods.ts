/** The 2026-07-28 method table: what stays from 2025, `server/discover` and `subscriptions/listen`. */

import type { MethodContext, MethodRun, MethodSpec } from '../host.js';
import { complete } from '../methods/completion.js';
import { getPrompt } from '../methods/prompts.js';
import { readResource } from '../methods/resources.js';
import { callTool } from '../methods/tools.js';
import { page } from '../pagination.js';
import { MODERN_PROTOCOL_VERSIONS } from './envelope.js';
import { listen } from './listen.js';

/** Methods of the 2025 revisions that 2026-07-28 removed (answered -32601 on the modern path). */
export const REMOVED_METHODS: ReadonlySet<string> = new Set([
  'initialize',
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
  'tasks/get',
  'tasks/list',
  'tasks/result',
  'tasks/cancel',
]);

export function discover(req: MethodContext): unknown {
  const server = req.session.server;
  const result: Record<string, unknown> = {
    supportedVersions: [...MODERN_PROTOCOL_VERSIONS],
    capabilities: server.capabilities('modern'),
  };
  if (server.info.instructions !== undefined) result.instructions = server.info.instructions;
  return result;
}

/** Lists in a deterministic order (by name, or by URI), so clients and caches see stable results. */
function sortedList(key: 'tools' | 'prompts' | 'resources' | 'resourceTemplates'): MethodRun {
  return (req) => {
    const server = req.session.server;
    const registry =
      key === 'tools'
        ? server.tools
        : key === 'prompts'
          ? server.prompts
          : key === 'resources'
            ? server.resources
            : server.templates;
    return page(key, registry.sorted(), req.params?.cursor, server.options.pageSize);
  };
}

export function modernMethods(): Map<string, MethodSpec> {
  const inline = (run: MethodRun): MethodSpec => ({ run, scheduled: false });
  const handler = (run: MethodRun): MethodSpec => ({ run, scheduled: true });
  return new Map<string, MethodSpec>([
    ['server/discover', inline(discover)],
    ['tools/list', inline(sortedList('tools'))],
    ['tools/call', handler(callTool)],
    ['resources/list', inline(sortedList('resources'))],
    ['resources/templates/list', inline(sortedList('resourceTemplates'))],
    ['resources/read', handler(readResource)],
    ['prompts/list', inline(sortedList('prompts'))],
    ['prompts/get', handler(getPrompt)],
    ['completion/complete', handler(complete)],
    ['subscriptions/listen', inline(listen)],
  ]);
}

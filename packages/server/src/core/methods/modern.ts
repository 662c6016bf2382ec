/** The 2026-07-28 method table: what stays from 2025, `server/discover` and `subscriptions/listen`. */

import type { Capability } from '../declared.js';
import type { MethodContext, MethodRun, MethodSpec } from '../host.js';
import { MODERN_PROTOCOL_VERSIONS } from '../modern/envelope.js';
import { complete } from './completion.js';
import { listen } from './listen.js';
import { listOf } from './lists.js';
import { getPrompt } from './prompts.js';
import { readResource } from './resources.js';
import { callTool } from './tools.js';

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

export function modernMethods(): Map<string, MethodSpec> {
  const inline = (run: MethodRun, needs?: Capability): MethodSpec => ({ run, scheduled: false, needs });
  const handler = (run: MethodRun, needs: Capability): MethodSpec => ({ run, scheduled: true, needs });
  return new Map<string, MethodSpec>([
    ['server/discover', inline(discover)],
    ['tools/list', inline(listOf('tools'), 'tools')],
    ['tools/call', handler(callTool, 'tools')],
    ['resources/list', inline(listOf('resources'), 'resources')],
    ['resources/templates/list', inline(listOf('resourceTemplates'), 'resources')],
    ['resources/read', handler(readResource, 'resources')],
    ['prompts/list', inline(listOf('prompts'), 'prompts')],
    ['prompts/get', handler(getPrompt, 'prompts')],
    ['completion/complete', handler(complete, 'completions')],
    ['subscriptions/listen', inline(listen)],
  ]);
}

/** The 2025 method table every session dispatches through; `needs` names the capability each depends on. */

import type { Capability } from '../declared.js';
import type { MethodRun, MethodSpec } from '../host.js';
import { complete } from './completion.js';
import { initialize, ping, setLevel } from './lifecycle.js';
import { listOf } from './lists.js';
import { getPrompt } from './prompts.js';
import { readResource, subscribe, unsubscribe } from './resources.js';
import { callTool } from './tools.js';

export function builtinMethods(): Map<string, MethodSpec> {
  const inline = (run: MethodRun, needs?: Capability): MethodSpec => ({ run, scheduled: false, needs });
  const handler = (run: MethodRun, needs: Capability): MethodSpec => ({ run, scheduled: true, needs });
  return new Map<string, MethodSpec>([
    ['initialize', inline(initialize)],
    ['ping', inline(ping)],
    ['logging/setLevel', inline(setLevel, 'logging')],
    ['tools/list', inline(listOf('tools'), 'tools')],
    ['tools/call', handler(callTool, 'tools')],
    ['resources/list', inline(listOf('resources'), 'resources')],
    ['resources/templates/list', inline(listOf('resourceTemplates'), 'resources')],
    ['resources/read', handler(readResource, 'resources')],
    ['resources/subscribe', inline(subscribe, 'resources.subscribe')],
    ['resources/unsubscribe', inline(unsubscribe, 'resources.subscribe')],
    ['prompts/list', inline(listOf('prompts'), 'prompts')],
    ['prompts/get', handler(getPrompt, 'prompts')],
    ['completion/complete', handler(complete, 'completions')],
  ]);
}

/** The method table every session dispatches through. */

import type { MethodRun, MethodSpec } from '../host.js';
import { complete } from './completion.js';
import { initialize, ping, setLevel } from './lifecycle.js';
import { getPrompt, listPrompts } from './prompts.js';
import { listResources, listTemplates, readResource, subscribe, unsubscribe } from './resources.js';
import { callTool, listTools } from './tools.js';

export function builtinMethods(): Map<string, MethodSpec> {
  const inline = (run: MethodRun): MethodSpec => ({ run, scheduled: false });
  const handler = (run: MethodRun): MethodSpec => ({ run, scheduled: true });
  return new Map<string, MethodSpec>([
    ['initialize', inline(initialize)],
    ['ping', inline(ping)],
    ['logging/setLevel', inline(setLevel)],
    ['tools/list', inline(listTools)],
    ['tools/call', handler(callTool)],
    ['resources/list', inline(listResources)],
    ['resources/templates/list', inline(listTemplates)],
    ['resources/read', handler(readResource)],
    ['resources/subscribe', inline(subscribe)],
    ['resources/unsubscribe', inline(unsubscribe)],
    ['prompts/list', inline(listPrompts)],
    ['prompts/get', handler(getPrompt)],
    ['completion/complete', handler(complete)],
  ]);
}

// What a server declares (initialize, server/discover) and what it answers come from one place, in both eras.
import { describe, expect, it } from 'vitest';
import { initializedPeer } from '../../test/support/in-memory.js';
import { modernPeer } from '../../test/support/modern.js';
import type { Message } from '../../test/support/peer.js';
import { text } from './content.js';
import { builtinMethods } from './methods/index.js';
import { modernMethods } from './methods/modern.js';
import { McpServer } from './server.js';

/** Every method that needs a capability, with params that would be served if it were declared. */
const PROBES: Record<string, Record<string, unknown>> = {
  'tools/list': {},
  'tools/call': { name: 'x' },
  'resources/list': {},
  'resources/templates/list': {},
  'resources/read': { uri: 'mem://x' },
  'resources/subscribe': { uri: 'mem://x' },
  'resources/unsubscribe': { uri: 'mem://x' },
  'prompts/list': {},
  'prompts/get': { name: 'x' },
  'completion/complete': { ref: { type: 'ref/prompt', name: 'x' }, argument: { name: 'a', value: '' } },
  'logging/setLevel': { level: 'info' },
};

/** The top-level capability key a method's `needs` stands for in the capabilities object. */
function declaredIn(caps: Record<string, unknown>, needs: string): boolean {
  if (needs === 'resources.subscribe') return (caps.resources as { subscribe?: boolean })?.subscribe === true;
  return needs in caps;
}

type Ask = (method: string, params: Record<string, unknown>) => Promise<Message>;

/** For every method of `table` that needs a capability: -32601 exactly when `caps` lacks it. */
async function agree(
  table: Map<string, { needs?: string }>,
  caps: Record<string, unknown>,
  ask: Ask,
): Promise<number> {
  let checked = 0;
  for (const [method, spec] of table) {
    if (spec.needs === undefined) continue;
    const params = PROBES[method];
    expect(params, `no probe for ${method}`).toBeDefined();
    const answer = await ask(method, params ?? {});
    const notFound = (answer.error as { code?: number } | undefined)?.code === -32601;
    expect(notFound, `${method}: ${JSON.stringify(answer)} with capabilities ${JSON.stringify(caps)}`).toBe(
      !declaredIn(caps, spec.needs),
    );
    checked++;
  }
  return checked;
}

function toolsOnly(): McpServer {
  const server = new McpServer({ name: 'd', version: '1' }, { capabilities: { logging: false } });
  server.addTool({ name: 'x' }, () => ({ content: [text('x')] }));
  return server;
}

function everything(): McpServer {
  const server = new McpServer({ name: 'd', version: '1' }, { capabilities: { subscribe: true } });
  server.addTool({ name: 'x' }, () => ({ content: [text('x')] }));
  server.addResource({ uri: 'mem://x', name: 'x' }, (uri) => [{ uri, text: 'x' }]);
  server.addPrompt({ name: 'x', complete: { a: () => ['b'] } }, () => [{ role: 'user', content: text('x') }]);
  return server;
}

describe('declared and answered, from one place', () => {
  it.each([
    ['a tools-only server', toolsOnly],
    ['a server with every kind', everything],
  ])('2025-11-25: %s answers -32601 for exactly the methods it does not declare', async (_, make) => {
    const { peer } = await initializedPeer(make());
    const caps = (peer.initializeResult as { capabilities: Record<string, unknown> }).capabilities;
    const checked = await agree(builtinMethods(), caps, (m, p) => peer.request(m, p));
    expect(checked).toBe(11);
  });

  it.each([
    ['a tools-only server', toolsOnly],
    ['a server with every kind', everything],
  ])('2026-07-28: %s answers -32601 for exactly the methods discover does not declare', async (_, make) => {
    const peer = await modernPeer(make());
    const discovered = await peer.modern('server/discover');
    const caps = (discovered.result as { capabilities: Record<string, unknown> }).capabilities;
    const checked = await agree(modernMethods(), caps, (m, p) => peer.modern(m, p));
    expect(checked).toBe(8);
  });

  it('a tools-only server declares neither prompts nor resources, and refuses to list them', async () => {
    const peer = await modernPeer(toolsOnly());
    const { result } = await peer.modern('server/discover');
    expect((result as { capabilities: object }).capabilities).toEqual({ tools: { listChanged: true } });
    expect((await peer.modern('prompts/list')).error).toMatchObject({
      code: -32601,
      message: 'Method not found: prompts/list (this server declares no prompts capability)',
    });
  });

  it('a kind declared once stays declared when its last entry goes, and lists empty', async () => {
    const server = toolsOnly();
    const prompt = server.addPrompt({ name: 'p' }, () => []);
    const peer = await modernPeer(server);
    prompt.remove();
    const { result } = await peer.modern('server/discover');
    expect((result as { capabilities: object }).capabilities).toHaveProperty('prompts');
    expect((await peer.modern('prompts/list')).result).toMatchObject({ prompts: [] });
  });
});

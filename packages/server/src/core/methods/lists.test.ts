// The four lists answer in one order in both eras: by name (tools, prompts), by URI (resources, templates).
import { describe, expect, it } from 'vitest';
import { initializedPeer } from '../../../test/support/in-memory.js';
import { modernPeer } from '../../../test/support/modern.js';
import { text } from '../content.js';
import { McpServer } from '../server.js';

/** Registered out of order, with a page size that splits each list. */
function shuffled(): McpServer {
  const server = new McpServer({ name: 'l', version: '1' }, { pageSize: 2 });
  for (const name of ['zeta', 'alpha', 'Mu', 'beta']) {
    server.addTool({ name }, () => ({ content: [text(name)] }));
    server.addPrompt({ name }, () => []);
    server.addResource({ uri: `mem://${name}`, name }, (uri) => [{ uri, text: name }]);
    server.addResourceTemplate({ uriTemplate: `mem://${name}/{id}`, name }, (uri) => [{ uri, text: name }]);
  }
  return server;
}

const SORTED = ['Mu', 'alpha', 'beta', 'zeta'];
const LISTS = [
  ['tools/list', 'tools', 'name'],
  ['prompts/list', 'prompts', 'name'],
  ['resources/list', 'resources', 'name'],
  ['resources/templates/list', 'resourceTemplates', 'name'],
] as const;

type Call = (method: string, params: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** Every page of one list, followed by nextCursor. */
async function all(call: Call, method: string, key: string, field: string): Promise<string[]> {
  const names: string[] = [];
  let cursor: unknown;
  do {
    const result = await call(method, cursor === undefined ? {} : { cursor });
    names.push(...(result[key] as Record<string, string>[]).map((item) => item[field] as string));
    cursor = result.nextCursor;
  } while (cursor !== undefined);
  return names;
}

describe('list order', () => {
  it.each(LISTS)('%s is sorted on 2025-11-25', async (method, key, field) => {
    const { peer } = await initializedPeer(shuffled());
    expect(await all((m, p) => peer.call(m, p), method, key, field)).toEqual(SORTED);
  });

  it.each(LISTS)('%s is sorted on 2026-07-28', async (method, key, field) => {
    const peer = await modernPeer(shuffled());
    const call: Call = async (m, p) => (await peer.modern(m, p)).result as Record<string, unknown>;
    expect(await all(call, method, key, field)).toEqual(SORTED);
  });
});

// Property test: any input leaves the server answering at most once and still working.
import { nextTurn } from '@entropic-mcp/test-kit/wait';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { initializedPeer } from '../../test/support/in-memory.js';
import { text } from './content.js';
import { McpServer } from './server.js';

const method = fc.constantFrom(
  'ping',
  'tools/list',
  'tools/call',
  'resources/read',
  'resources/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'resources/subscribe',
  'notifications/cancelled',
  'nope',
);
const anyId = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.double(), fc.boolean());
const message = fc.oneof(
  fc.jsonValue(),
  fc.record(
    { jsonrpc: fc.oneof(fc.constant('2.0'), fc.string()), id: anyId, method, params: fc.jsonValue() },
    { requiredKeys: [] },
  ),
  fc.record({
    jsonrpc: fc.constant('2.0'),
    id: fc.integer(),
    method,
    params: fc.dictionary(fc.string(), fc.jsonValue()),
  }),
);

describe('any input', () => {
  it('never crashes the server, answers requests at most once, and the connection keeps working', async () => {
    const server = new McpServer({ name: 'f', version: '1' }, { capabilities: { subscribe: true } });
    server.addTool({ name: 'echo', inputSchema: { type: 'object' } }, (args) => ({
      content: [text(JSON.stringify(args))],
    }));
    server.addResource({ uri: 'x://a', name: 'a' }, (uri) => [{ uri, text: 'a' }]);
    server.addPrompt({ name: 'p', arguments: [{ name: 'q', required: true }] }, () => []);
    const { peer } = await initializedPeer(server);
    await fc.assert(
      fc.asyncProperty(fc.array(message, { maxLength: 5 }), async (messages) => {
        const before = peer.received.length;
        for (const m of messages) await peer.handle.send(m);
        const alive = await peer.request('ping', undefined, `alive-${before}`);
        expect(alive.result).toEqual({});
        const answers = peer.received
          .slice(before)
          .filter((m) => m.id !== undefined && m.method === undefined);
        // No request is answered twice: per id, no more answers than requests sent with that id.
        const sent = new Map<string, number>();
        for (const m of messages as { id?: unknown }[]) {
          if (m !== null && typeof m === 'object' && 'id' in m) {
            const key = JSON.stringify(m.id);
            sent.set(key, (sent.get(key) ?? 0) + 1);
          }
        }
        const got = new Map<string, number>();
        for (const a of answers) {
          const key = JSON.stringify(a.id);
          if (key !== 'null' && !key.startsWith('"alive-')) got.set(key, (got.get(key) ?? 0) + 1);
        }
        for (const [key, count] of got) expect(count).toBeLessThanOrEqual(sent.get(key) ?? 0);
        for (const a of answers) {
          if (a.error !== undefined) expect(typeof (a.error as { code: unknown }).code).toBe('number');
        }
      }),
      { numRuns: 200 },
    );
    await nextTurn();
  });
});

/**
 * One list of interop cases for the official v2 client (@modelcontextprotocol/client 2.4.0) in each
 * version-negotiation mode. Every target (the library or `entropic-mcp serve`, over stdio or
 * Streamable HTTP) runs the same list through `runEraInterop`; the target only supplies a fresh
 * client transport to a server that registered test/fixtures/era/tools.mjs.
 */

import { waitFor } from '@entropic-mcp/test-kit/wait';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

export const MODERN = '2026-07-28';
export const LEGACY = '2025-11-25';

const MODES = [
  { mode: 'auto', era: MODERN },
  { mode: 'pin', era: MODERN },
  { mode: 'legacy', era: LEGACY },
];

const firstText = (result) => result.content[0]?.text;

function clientFor(mode) {
  const versionNegotiation = mode === 'pin' ? { mode: { pin: MODERN } } : { mode };
  return new Client(
    { name: `era-interop-${mode}`, version: '1.0.0' },
    { capabilities: { elicitation: {} }, versionNegotiation },
  );
}

/** Records what the client sends, so a test can tell an MRTR retry from an answered server request. */
function recordSends(transport, sent) {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    sent.push(message);
    return send(message, options);
  };
  return transport;
}

/** Runs the cases for each mode against `target` (see era-interop.d.mts). */
export function runEraInterop(target) {
  for (const { mode, era } of MODES) {
    const pending = target.pending?.[mode];
    const title = `${target.name}: v2 client, versionNegotiation ${mode}`;
    describe.skipIf(pending !== undefined)(pending ? `${title} (pending: ${pending})` : title, () => {
      let client;
      const sent = [];
      const elicited = [];
      let toolsChanged = 0;

      beforeAll(async () => {
        client = clientFor(mode);
        client.setRequestHandler('elicitation/create', async (request) => {
          elicited.push(request.params);
          return { action: 'accept', content: { name: 'Grace' } };
        });
        client.setNotificationHandler('notifications/tools/list_changed', () => {
          toolsChanged++;
        });
        await client.connect(recordSends(await target.transport(), sent));
      });

      afterAll(async () => {
        await client?.close();
      });

      it(`negotiates ${era}`, () => {
        expect(client.getNegotiatedProtocolVersion()).toBe(era);
      });

      it('lists tools and calls one', async () => {
        const call = target.call ?? {
          name: 'era_echo',
          arguments: { text: `hi ${mode}` },
          text: `hi ${mode}`,
        };
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toEqual(
          expect.arrayContaining(['era_echo', 'era_ask', 'era_add_tool', call.name]),
        );
        const result = await client.callTool({ name: call.name, arguments: call.arguments });
        expect(firstText(result)).toBe(call.text);
        expect(result.isError).toBeFalsy();
      });

      it('answers elicitation from inside a tool call', async () => {
        const from = sent.length;
        const result = await client.callTool({ name: 'era_ask', arguments: {} });
        expect(firstText(result)).toBe('Hello, Grace (accept)');
        expect(elicited).toHaveLength(1);
        expect(elicited[0]).toMatchObject({ message: 'What is your name?' });
        const mine = sent.slice(from);
        const retries = mine.filter(
          (m) => m.method === 'tools/call' && m.params?.inputResponses !== undefined,
        );
        const answers = mine.filter((m) => m.method === undefined && 'result' in m);
        if (era === MODERN) {
          // multi-round-trip: the first call ends input_required, the retry carries the answer
          expect(answers).toEqual([]);
          expect(retries).toHaveLength(1);
          expect(retries[0]?.params?.requestState).toEqual(expect.any(String));
        } else {
          // a real server→client request on the legacy session
          expect(retries).toEqual([]);
          expect(answers).toHaveLength(1);
        }
      });

      it('receives a tools list change and sees the new tool', async () => {
        const subscription = era === MODERN ? await client.listen({ toolsListChanged: true }) : undefined;
        if (subscription) expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
        const before = toolsChanged;
        const added = firstText(await client.callTool({ name: 'era_add_tool', arguments: {} }));
        await waitFor(() => toolsChanged > before, 'notifications/tools/list_changed');
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toContain(added);
        await subscription?.close();
      });
    });
  }
}

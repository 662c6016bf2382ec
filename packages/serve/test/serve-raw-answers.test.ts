// A plugin's `result` text reaches the official clients exactly (it is written to the wire as the plugin wrote
// it), in both hosting modes, over stdio and Streamable HTTP, in both protocol eras; a malformed answer is still
// a named tool error.

import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLI,
  connectHttp,
  connectStdio,
  type HttpServer,
  SERVE_ROOT,
  startHttp,
  textOf,
} from './support/serve-helpers.js';

interface Caller {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

const ESCAPES = 'q" b\\ s/ \b\f\n\r\t \u0000 é 😀 😀 é€';
const BIG = 'say "hi" \\ line\n café 😀 é\u2028 / <b>&</b>|'.repeat(10_000);
const ARGS = { text: 'é 😀 "quoted" \\ \n\t\u0001 </script> \u2028 end', n: [1, 2.5, null, true] };

function modernClient(): ClientV2 {
  return new ClientV2(
    { name: 'raw-answers', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
}

for (const isolation of ['process', 'none'] as const) {
  describe(`serve --isolation ${isolation}: plugin answers as written`, () => {
    const args = ['--plugin', fixture('raw-answers'), '--isolation', isolation];
    const callers: [string, Caller][] = [];
    let http: HttpServer;

    beforeAll(async () => {
      http = await startHttp(args);
      const stdioV2 = modernClient();
      await stdioV2.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [CLI, 'serve', ...args],
          cwd: SERVE_ROOT,
        }),
      );
      const httpV2 = modernClient();
      await httpV2.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      callers.push(
        ['stdio, v1 client, 2025-11-25', (await connectStdio(args)).client],
        ['stdio, v2 client, 2026-07-28', stdioV2],
        ['HTTP, v1 client, 2025-11-25', await connectHttp(http.url)],
        ['HTTP, v2 client, 2026-07-28', httpV2],
      );
    }, 60_000);

    afterAll(async () => {
      for (const [, caller] of callers) await caller.close();
      await http?.stop();
    });

    it('every JSON escape, non-ASCII text, a 600 kB escaped text and echoed arguments round-trip exactly', async () => {
      expect(callers).toHaveLength(4);
      for (const [via, caller] of callers) {
        const escapes = await caller.callTool({ name: 'raw.escapes', arguments: {} });
        expect(textOf(escapes), via).toBe(ESCAPES);
        const big = await caller.callTool({ name: 'raw.big', arguments: {} });
        expect(textOf(big).length, via).toBe(BIG.length);
        expect(textOf(big) === BIG, via).toBe(true);
        const echo = await caller.callTool({ name: 'raw.echo', arguments: ARGS });
        expect(JSON.parse(textOf(echo)), via).toEqual(ARGS);
        expect((echo as { _meta?: Record<string, unknown> })._meta?.['io.entropic/directives'], via).toEqual(
          [],
        );
      }
    }, 60_000);

    it('an answer that is not valid JSON is still a tool error naming the plugin, the tool and the fault', async () => {
      for (const [via, caller] of callers) {
        for (const tool of ['bad_escape', 'raw_control', 'unterminated', 'trailing']) {
          const result = (await caller.callTool({ name: `raw.${tool}`, arguments: {} })) as {
            isError?: boolean;
          };
          expect(result.isError, `${via} ${tool}`).toBe(true);
          expect(textOf(result), `${via} ${tool}`).toMatch(
            new RegExp(
              `^plugin "raw" failed on tool "${tool}" \\[ENTROPIC_PLUGIN_BAD_ANSWER\\]: .*is not valid JSON`,
            ),
          );
        }
      }
    }, 60_000);
  });
}

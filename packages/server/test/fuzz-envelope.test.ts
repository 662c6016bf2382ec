// Property-based fuzzing of the JSON-RPC envelope over the in-memory transport (fast): every valid
// request is answered exactly once with the right code, id-null errors come exactly when owed, and
// `ping` is answered after each sequence. FUZZ_RUNS=N runs N cases per property (the long mode).
import { quietPeriod } from '@entropic-mcp/test-kit/wait';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { McpServer, text } from '../src/index.js';
import { addFuzzTools } from './fixtures/fuzz/tools.mjs';
import { buildCases, garbage, oracleCase, runs, timeLimit } from './support/fuzz-cases.js';
import { idSource, Ledger } from './support/fuzz-ledger.js';
import { connectInMemory } from './support/in-memory.js';
import type { ClientHandle } from './support/peer.js';

async function connect(protocolVersion: string): Promise<{ handle: ClientHandle; ledger: Ledger }> {
  const server = addFuzzTools(new McpServer({ name: 'fuzz', version: '1' }), text);
  const { handle } = await connectInMemory(server);
  const ledger = new Ledger();
  void (async () => {
    for (;;) {
      try {
        ledger.add(await handle.next());
      } catch {
        return;
      }
    }
  })();
  const init = { protocolVersion, capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } };
  await handle.send({ jsonrpc: '2.0', id: 'probe-init', method: 'initialize', params: init });
  await ledger.until(() => ledger.answered('probe-init'), 10_000, 'initialize');
  await handle.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { handle, ledger };
}

async function probe(handle: ClientHandle, ledger: Ledger, id: string): Promise<void> {
  await handle.send({ jsonrpc: '2.0', id, method: 'ping' });
  await ledger.until(() => ledger.answered(id), 10_000, `ping ${id}`);
}

describe.each(['2025-11-25', '2025-03-26'])('JSON-RPC envelope fuzz, protocol %s', (version) => {
  const batches = version === '2025-03-26';

  it('answers each valid request once with the right code, owed id-null errors only, and ping after', {
    timeout: timeLimit(60_000),
  }, async () => {
    const { handle, ledger } = await connect(version);
    const id = idSource(`env-${version}`);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(oracleCase, { minLength: 1, maxLength: 6 }), async (builds) => {
        const c = buildCases(builds, id, { batches });
        const keys = ledger.owe(c);
        for (const frame of c.frames) await handle.sendRaw?.(frame.toString('utf8'));
        await probe(handle, ledger, `probe-${++n}`);
        await ledger.until(() => ledger.allOwedArrived(), 10_000, 'owed answers');
        expect(ledger.problems(keys)).toEqual([]);
      }),
      { numRuns: runs(150) },
    );
    await probe(handle, ledger, 'probe-final');
    await quietPeriod(300); // an answer owed to no one would show up here
    expect(ledger.problems()).toEqual([]);
  });

  it('survives arbitrary text frames: only well-formed responses, ping still answered', {
    timeout: timeLimit(60_000),
  }, async () => {
    const { handle, ledger } = await connect(version);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(garbage, { maxLength: 4 }), async (frames) => {
        for (const frame of frames) await handle.sendRaw?.(frame.toString('utf8'));
        await probe(handle, ledger, `probe-${++n}`);
        expect(ledger.violations).toEqual([]);
      }),
      { numRuns: runs(150) },
    );
  });
});

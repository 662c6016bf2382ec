/**
 * One client makes a burst of 2025-11-25 tasks with the official SDK v1 client (`callToolStream`); other
 * clients (or, over stdio, the same one) then call a tool, read a resource and get a prompt. A call whose SDK
 * promise does not settle within the deadline is reported as hung, naming it. Shared by the HTTP (memory and
 * Redis task stores) and stdio reproductions of the handler-slot leak.
 */

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

/** An official SDK v1 client named `name`, connected to the Streamable HTTP endpoint `url`. */
export async function httpClient(url: string, name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** A call that has not settled after `ms` rejects saying it hung (an SDK promise never settling is a hang). */
export function within<T>(promise: Promise<T>, ms: number, what: string | (() => string)): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_resolve, reject) => {
    const name = (): string => (typeof what === 'string' ? what : what());
    timer = setTimeout(() => reject(new Error(`hung: ${name()} was not answered within ${ms} ms`)), ms);
  });
  return Promise.race([promise, hung]).finally(() => clearTimeout(timer));
}

type StreamMessage = { type: string; task?: { taskId: string }; result?: unknown; error?: unknown };

/** How the burst went: tasks the server created, and how each stream ended. */
export interface Burst {
  /** Resolves once `count` tasks are created (their `taskCreated` arrived); rejects when one hangs. */
  readonly created: (count: number, ms: number) => Promise<void>;
  /** Every stream's last message type (`result`, `error`), once all ended. */
  readonly ended: Promise<string[]>;
}

/** `count` tasks of the `chore` tool, each working `ms`, started at once and read to their end. */
export function taskBurst(client: Client, count: number, ms: number): Burst {
  let made = 0;
  const waiters = new Set<() => void>();
  const one = async (): Promise<string> => {
    const stream = client.experimental.tasks.callToolStream(
      { name: 'chore', arguments: { ms } },
      CallToolResultSchema,
      { task: { ttl: 60_000 }, timeout: 120_000 },
    ) as AsyncIterable<StreamMessage>;
    let last = 'none';
    for await (const message of stream) {
      if (message.type === 'taskCreated') {
        made++;
        for (const wake of waiters) wake();
      }
      last = message.type;
    }
    return last;
  };
  const ended = Promise.all(Array.from({ length: count }, one));
  ended.catch(() => undefined);
  const created = (wanted: number, deadlineMs: number): Promise<void> =>
    within(
      new Promise<void>((resolve) => {
        const wake = (): void => {
          if (made < wanted) return;
          waiters.delete(wake);
          resolve();
        };
        waiters.add(wake);
        wake();
      }),
      deadlineMs,
      () => `the creation of task ${wanted} of the burst (${made} created)`,
    );
  return { created, ended };
}

/**
 * `client` calls the plain tool, reads the resource and gets the prompt, each within `ms`; resolves with
 * the slowest answer's time in milliseconds.
 */
export async function plainCalls(client: Client, name: string, ms: number): Promise<number> {
  const timed = async <T>(what: string, call: () => Promise<T>): Promise<T & { took: number }> => {
    const started = performance.now();
    const out = await within(call(), ms, `${name}'s ${what}`);
    return Object.assign(out as object, { took: performance.now() - started }) as T & { took: number };
  };
  const called = await timed('tools/call', () =>
    client.callTool({ name: 'echo', arguments: { text: name } }),
  );
  const read = await timed('resources/read', () => client.readResource({ uri: 'burst://note' }));
  const prompt = await timed('prompts/get', () => client.getPrompt({ name: 'greet' }));
  if ((called.content as { text?: string }[])[0]?.text !== name) throw new Error(`${name}: wrong echo`);
  if ((read.contents[0] as { text?: string }).text !== 'still here') throw new Error(`${name}: wrong read`);
  if (prompt.messages.length !== 1) throw new Error(`${name}: wrong prompt`);
  return Math.max(called.took, read.took, prompt.took);
}

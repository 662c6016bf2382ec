/**
 * The official clients behind one small interface: SDK v1 (`@modelcontextprotocol/sdk` 1.32.2, the
 * 2025-11-25 session era) and SDK v2 (`@modelcontextprotocol/client` 2.4.0, in the session era or
 * pinned to 2026-07-28), each with a bearer token, a wire tap, an elicitation answer and a patient
 * reconnection policy (a client that gives up resuming after two tries would hide what the server did).
 * Tasks: SDK v1's own in the session era; in 2026-07-28 raw HTTP through the same tap (SDK v2 2.4.0
 * refuses a task answer), see modern-task.ts.
 */

import { holdFor } from '@entropic-mcp/test-kit/wait';
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2Transport,
} from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { modernTask } from './modern-task.js';
import { Tap } from './tap.js';

export type Sdk = 'v1' | 'v2';
/** `legacy`: 2025-11-25 with a session; `modern`: 2026-07-28, no session. */
export type Era = 'legacy' | 'modern';

export interface ToolAnswer {
  readonly content?: readonly { type: string; text?: string }[];
  readonly isError?: boolean;
}

export interface CallOptions {
  readonly signal: AbortSignal;
  readonly onprogress?: (progress: number) => void;
}

export interface ChaosClient {
  readonly sdk: Sdk;
  readonly era: Era;
  readonly tap: Tap;
  /** The session id (legacy era), once connected. */
  readonly sessionId: string | undefined;
  call(name: string, args: Record<string, unknown>, options: CallOptions): Promise<ToolAnswer>;
  /** The same call, run as a task: made, polled until it ends, its result (or its error thrown). */
  task(name: string, args: Record<string, unknown>, options: CallOptions): Promise<ToolAnswer>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  readonly endpoint: string;
  readonly token: string | undefined;
  readonly signal: AbortSignal;
  /** Called with each `notifications/message` params' `data`. */
  readonly onLog?: (data: unknown) => void;
  /** How long the user takes to answer an elicitation. Default at once. */
  readonly elicitDelayMs?: number;
}

const RECONNECT = {
  initialReconnectionDelay: 200,
  maxReconnectionDelay: 2000,
  reconnectionDelayGrowFactor: 1.5,
  maxRetries: 10,
};

/** The name the elicitation handler answers for a question about `payload`. */
export function nameFor(message: string): string {
  return `n-${/^Name for (.*)\?$/.exec(message)?.[1] ?? '?'}`;
}

/** The request options both SDKs take: our signal, no SDK timeout of its own, progress if asked. */
function requestOptions({ signal, onprogress }: CallOptions) {
  const progress =
    onprogress === undefined ? {} : { onprogress: (p: { progress: number }) => onprogress(p.progress) };
  return { signal, timeout: 3_600_000, ...progress };
}

/** What the elicitation handler answers: the name for the question, after the user's delay. */
async function answerFor(message: string, delayMs = 0) {
  await holdFor(delayMs); // the user's think time, part of the load
  return { action: 'accept' as const, content: { name: nameFor(message) } };
}

export async function connectClient(sdk: Sdk, era: Era, options: ConnectOptions): Promise<ChaosClient> {
  const tap = new Tap(options.token);
  const url = new URL(options.endpoint);
  const info = { name: `chaos-${sdk}-${era}`, version: '1.0.0' };
  const transportOptions = { fetch: tap.fetch, reconnectionOptions: RECONNECT };
  const connectOptions = { signal: options.signal, timeout: 3_600_000 };
  const onLog = options.onLog ?? (() => {});
  const made = (
    transport: { sessionId?: string | undefined },
    rest: Pick<ChaosClient, 'call' | 'task' | 'close'>,
  ) => ({
    sdk,
    era,
    tap,
    get sessionId() {
      return transport.sessionId;
    },
    ...rest,
  });
  if (sdk === 'v1') {
    if (era !== 'legacy') throw new Error('SDK v1 speaks only the session era');
    const client = new V1Client(info, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, (r) => answerFor(r.params.message, options.elicitDelayMs));
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => onLog(n.params.data));
    const transport = new V1Transport(url, transportOptions);
    await client.connect(transport, connectOptions);
    return made(transport, {
      call: async (name, args, call) =>
        (await client.callTool(
          { name, arguments: args },
          CallToolResultSchema,
          requestOptions(call),
        )) as ToolAnswer,
      task: async (name, args, call) => {
        const stream = client.experimental.tasks.callToolStream(
          { name, arguments: args },
          CallToolResultSchema,
          {
            ...requestOptions(call),
            task: { ttl: 60_000 },
          },
        );
        for await (const message of stream) {
          if (message.type === 'result') return message.result as ToolAnswer;
          if (message.type === 'error') throw message.error;
        }
        throw new Error('the task stream ended without a result or an error');
      },
      close: () => client.close(),
    });
  }
  const client = new V2Client(info, {
    capabilities: { elicitation: {} },
    versionNegotiation: era === 'modern' ? { mode: { pin: '2026-07-28' } } : { mode: 'legacy' },
  });
  client.setRequestHandler('elicitation/create', (r) => answerFor(r.params.message, options.elicitDelayMs));
  client.setNotificationHandler('notifications/message', (n) => onLog(n.params.data));
  const transport = new V2Transport(url, transportOptions);
  await client.connect(transport, connectOptions);
  return made(transport, {
    call: async (name, args, call) =>
      (await client.callTool({ name, arguments: args }, requestOptions(call))) as ToolAnswer,
    task: (name, args, call) => {
      if (era !== 'modern') throw new Error('SDK v2 runs no 2025-11-25 tasks');
      return modernTask(tap, url, name, args, call.signal);
    },
    close: () => client.close(),
  });
}

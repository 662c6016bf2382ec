/** A peer over memory that sends the 2026-07-28 `_meta` envelope with every request. */

import { waitFor } from '@entropic-mcp/test-kit/wait';
import type { McpServer } from '../../src/core/server.js';
import { connectInMemory } from './in-memory.js';
import { envelope } from './modern-envelope.js';
import { type Message, Peer } from './peer.js';

/** A peer over memory whose `modern` sends each request with the envelope. */
export class ModernPeer extends Peer {
  capabilities: Record<string, unknown> = {};

  modern(method: string, params: Record<string, unknown> = {}): Promise<Message> {
    return this.request(method, {
      ...params,
      _meta: { ...envelope(this.capabilities), ...(params._meta as object) },
    });
  }
}

export async function modernPeer(
  server: McpServer,
  capabilities: Record<string, unknown> = {},
): Promise<ModernPeer> {
  const { handle } = await connectInMemory(server);
  const peer = new ModernPeer(handle);
  peer.capabilities = capabilities;
  return peer;
}

/**
 * Polls `tasks/get` until `done` holds for the task (deadline 20 s, failing with the task's id), and returns it.
 * A `tasks/get` answered with an error (or a `taskId` that is not a string) fails the wait at once, naming it.
 */
export async function pollTask(
  peer: ModernPeer,
  taskId: string,
  done: (task: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  if (typeof taskId !== 'string') {
    throw new Error(
      `pollTask needs a task id, got ${JSON.stringify(taskId)} (the call did not become a task)`,
    );
  }
  let task: Record<string, unknown> = {};
  await waitFor(async () => {
    const answer = await peer.modern('tasks/get', { taskId });
    if (answer.result === undefined) {
      throw new Error(`tasks/get for task ${taskId} answered ${JSON.stringify(answer.error ?? answer)}`);
    }
    task = answer.result as Record<string, unknown>;
    return done(task);
  }, `task ${taskId} to get there`);
  return task;
}

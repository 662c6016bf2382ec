/**
 * One principal that opens legacy sessions, opens each one's GET stream through HAProxy, and leaves:
 * it closes its socket and never sends DELETE. HAProxy may keep its own connection to the server open
 * afterwards, so the server must find such streams itself.
 */

import { openLegacySession, openSse } from '@entropic-mcp/test-kit/raw-mcp';

export interface Abandoned {
  /** GET streams opened (status 200) and then abandoned. */
  opened: number;
  /** Attempts refused, by what the refusal said. */
  readonly refused: Map<string, number>;
}

export async function abandonStreams(
  endpoint: string,
  token: string,
  count: number,
  concurrency = 16,
): Promise<Abandoned> {
  const headers = { authorization: `Bearer ${token}` };
  const result: Abandoned = { opened: 0, refused: new Map() };
  const refuse = (why: string): void => {
    result.refused.set(why, (result.refused.get(why) ?? 0) + 1);
  };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next++ < count) {
      try {
        const session = await openLegacySession(endpoint, headers);
        const stream = await openSse(endpoint, 'GET', session, { headers });
        if (stream.status === 200) result.opened++;
        else refuse(`GET ${stream.status}`);
        stream.close();
      } catch (error) {
        refuse((error as Error).message.replace(/\s+/g, ' ').slice(0, 80));
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return result;
}

/** The refusals as one line: `N × what`. */
export function describeRefusals(refused: ReadonlyMap<string, number>): string {
  return [...refused].map(([why, n]) => `${n} × ${why}`).join('; ') || 'none';
}

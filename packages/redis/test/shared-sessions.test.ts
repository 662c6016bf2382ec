/** The shared-session suite of the server, with two processes' worth of Redis connections on a real Redis. */

import { startRedis } from '@entropic-mcp/test-kit/redis-server';
import { sharedSessionSuite } from '../../server/test/support/shared-session-suite.js';
import { createRedisSharedState } from '../src/index.js';

sharedSessionSuite('on Redis', async () => {
  const server = await startRedis();
  const a = await createRedisSharedState(server.url, { nodeId: 'a', keyPrefix: 'suite:' });
  const b = await createRedisSharedState(server.url, { nodeId: 'b', keyPrefix: 'suite:' });
  return {
    nodes: [a, b],
    eventStore: a.eventStore,
    async close() {
      await a.close();
      await b.close();
      await server.stop();
    },
  };
});

/** Two handlers in one process sharing sessions through the in-memory registry and hub. */

import { MemoryEventStore, MemoryMessageHub, MemorySessionRegistry } from '../src/http/index.js';
import { sharedSessionSuite } from './support/shared-session-suite.js';

sharedSessionSuite('in memory', async () => {
  const registry = new MemorySessionRegistry();
  const hub = new MemoryMessageHub();
  return {
    nodes: [
      { registry, router: hub.router('a') },
      { registry, router: hub.router('b') },
    ],
    eventStore: new MemoryEventStore(),
    close: async () => {},
  };
});

// The shared transport suite over the fetch handler, served on a real socket (stateful, SSE).
import { createFetchHandler } from '../src/fetch/index.js';
import { hostFetch } from './support/fetch-host.js';
import { connectHttpAt } from './support/http-client-handle.js';
import { runTransportSuite } from './support/transport-suite.js';

runTransportSuite({
  name: 'fetch handler (stateful, SSE)',
  connect: async (server) => {
    const handler = createFetchHandler(server);
    return connectHttpAt(await hostFetch(handler, '/mcp', () => handler.close()));
  },
});

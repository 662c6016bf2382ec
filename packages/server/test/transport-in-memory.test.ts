// The shared transport suite over the in-memory transport.
import { connectInMemory } from './support/in-memory.js';
import { runTransportSuite } from './support/transport-suite.js';

runTransportSuite({
  name: 'in-memory',
  connect: async (server) => (await connectInMemory(server)).handle,
});

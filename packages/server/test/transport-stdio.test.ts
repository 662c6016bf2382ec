// The shared transport suite over the stdio transport.
import { connectStdioStreams } from './support/stdio-streams.js';
import { runTransportSuite } from './support/transport-suite.js';

runTransportSuite({
  name: 'stdio',
  connect: async (server) => (await connectStdioStreams(server)).handle,
});

// The shared transport suite over real Streamable HTTP (stateful, SSE responses). JSON-response mode
// cannot run it whole: a JSON body carries only the response, so the suite's "progress before the
// response" test does not apply there (http-interop-modes.test.ts covers that mode).
import { connectHttp } from './support/http-client-handle.js';
import { runTransportSuite } from './support/transport-suite.js';

runTransportSuite({ name: 'Streamable HTTP (stateful, SSE)', connect: (server) => connectHttp(server) });

/** `@entropic-mcp/server/fetch`: the Streamable HTTP endpoint as a web-standard fetch handler. */

export { bearerAuth } from '../http/stages/auth.js';
export type { FetchHandler, FetchHandlerOptions } from './handler.js';
export { createFetchHandler } from './handler.js';

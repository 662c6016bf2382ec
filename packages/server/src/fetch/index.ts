/** `@entropic-mcp/server/fetch`: the Streamable HTTP endpoint as a web-standard fetch handler. */

export type { FetchHandler, FetchHandlerOptions } from './handler.js';
export { createFetchHandler } from './handler.js';

import type { McpServer, TextContent } from '../src/index.js';

export function addFuzzTools(server: McpServer, text: (value: string) => TextContent): McpServer;

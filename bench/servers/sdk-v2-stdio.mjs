// The official SDK v2 (@modelcontextprotocol/server 2.4.0) echo server over stdio, written as its docs show:
// `connect(new StdioServerTransport())` for the 2025 era, or with `--modern` its `serveStdio(factory)` entry,
// which serves both eras (2026-07-28 included) from one factory.
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { echoServer } from './sdk-v2-echo.mjs';

if (process.argv.includes('--modern')) serveStdio(echoServer);
else await echoServer().connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));

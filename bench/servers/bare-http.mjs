// The ceiling for HTTP: node:http, parse the POSTed JSON, answer in the mode's wire format
// (one SSE event or a JSON body, each with Content-Length, in one write; the modern era answers JSON, as
// a 2026-07-28 server does for a request that sends nothing before its result). No sessions table, no header
// checks, no protocol library.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { answer } from './bare-answer.mjs';
import { announce, httpArgs, readBody } from './http-args.mjs';

const { port, mode } = httpArgs();

const server = http.createServer(async (req, res) => {
  const msg = JSON.parse(await readBody(req));
  const reply = answer(msg);
  if (reply === undefined) {
    res.writeHead(202).end();
    return;
  }
  const headers = {};
  if (msg.method === 'initialize' && mode !== 'stateless') headers['mcp-session-id'] = randomUUID();
  const text = JSON.stringify(reply);
  if (mode === 'json' || mode === 'modern') {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(text);
    res.writeHead(200, headers).end(text);
  } else {
    const event = `event: message\ndata: ${text}\n\n`;
    headers['content-type'] = 'text/event-stream';
    headers['cache-control'] = 'no-cache';
    headers['content-length'] = Buffer.byteLength(event);
    res.writeHead(200, headers).end(event);
  }
});
server.listen(port, '127.0.0.1', () => announce(server));

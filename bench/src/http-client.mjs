// The HTTP load generator: `clients` concurrent MCP clients over one keep-alive agent, each with its own
// session (stateful modes) and one request at a time; replies are read as JSON or as an SSE stream. In the
// modern era (mode `modern`) there is no handshake: every call carries the 2026-07-28 envelope.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { callParams, LEGACY_VERSION, modernCallHeaders } from './era.mjs';

function post(agent, url, headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The JSON-RPC message with `id` in a JSON or SSE body. */
function findReply(res, id) {
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${res.text.slice(0, 300)}`);
  const type = res.headers['content-type'] ?? '';
  if (type.startsWith('application/json')) return JSON.parse(res.text);
  let start = 0;
  while (start < res.text.length) {
    let end = res.text.indexOf('\n', start);
    if (end === -1) end = res.text.length;
    if (res.text.startsWith('data:', start)) {
      const data = res.text.slice(start + 5, end).trim();
      if (data.length > 0) {
        const msg = JSON.parse(data);
        if (msg.id === id) return msg;
      }
    }
    start = end + 1;
  }
  throw new Error(`no reply with id ${id} in: ${res.text.slice(0, 300)}`);
}

class HttpClient {
  constructor(agent, url, target, era) {
    this.agent = agent;
    this.url = url;
    this.target = target;
    this.era = era;
    this.headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(era === 'modern' ? modernCallHeaders(target.tool) : {}),
    };
    this.nextId = 1;
    this.callParams = callParams(target, era);
  }

  async initialize() {
    if (this.era === 'modern') return;
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: LEGACY_VERSION,
        capabilities: {},
        clientInfo: { name: 'entropic-bench', version: '0' },
      },
    });
    const res = await post(this.agent, this.url, this.headers, body);
    const reply = findReply(res, 0);
    if (!reply.result) throw new Error(`initialize failed: ${res.text.slice(0, 300)}`);
    this.headers['mcp-protocol-version'] = LEGACY_VERSION;
    const session = res.headers['mcp-session-id'];
    if (session) this.headers['mcp-session-id'] = session;
    const note = await post(
      this.agent,
      this.url,
      this.headers,
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    );
    if (note.status !== 202) throw new Error(`notifications/initialized: HTTP ${note.status} ${note.text}`);
  }

  async call() {
    const id = this.nextId++;
    const body = `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${this.callParams}}`;
    const res = await post(this.agent, this.url, this.headers, body);
    const reply = findReply(res, id);
    if (reply.result?.content?.[0]?.text !== this.target.expect) {
      throw new Error(`unexpected answer to tools/call: ${res.text.slice(0, 300)}`);
    }
  }
}

/** Open `count` initialized clients over one keep-alive agent; `era` is 'legacy' or 'modern'. */
export async function openClients(url, target, count, era = 'legacy') {
  // Every server here closes a connection idle for 5 s (node:http's keepAliveTimeout). While a round measures the
  // other servers, this one's sockets sit idle; reusing one just as the server closes it gives "socket hang up".
  // So the agent drops a free socket after 4 s instead (`timeout` destroys idle sockets; a request still running
  // only gets a 'timeout' event, which nothing here acts on).
  const agent = new http.Agent({ keepAlive: true, maxSockets: count, timeout: 4000 });
  const clients = [];
  for (let i = 0; i < count; i++) {
    const client = new HttpClient(agent, url, target, era);
    await client.initialize();
    clients.push(client);
  }
  return { clients, close: () => agent.destroy() };
}

/** `calls` tools/call spread over the clients, each keeping one request in flight. */
export async function runHttp(clients, calls) {
  const latencies = new Float64Array(calls);
  let next = 0;
  const started = performance.now();
  const loop = async (client) => {
    while (next < calls) {
      const index = next++;
      const t0 = performance.now();
      await client.call();
      latencies[index] = (performance.now() - t0) * 1000;
    }
  };
  await Promise.all(clients.map(loop));
  return { elapsedMs: performance.now() - started, latencies };
}

/**
 * Requests with names a client made up, sent to a real `serve --http` over a few kept-alive connections: unknown
 * methods (plain and `com.x/y` style), notifications, tool and prompt names and resource URIs, in a 2025-11-25
 * session and as 2026-07-28 requests. For the tests that check every metric label stays bounded whatever clients
 * send.
 */
import { Agent, request } from 'node:http';
import { LEGACY_VERSION, MODERN_VERSION, openLegacySession } from '@entropic-mcp/test-kit/raw-mcp';

/** Few connections, kept open: thousands of requests stay within serve's per-address and accept-rate limits. */
const agent = new Agent({ keepAlive: true, maxSockets: 8 });

function post(endpoint: string, body: unknown, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      endpoint,
      {
        method: 'POST',
        agent,
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          ...headers,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'made-up', version: '1.0.0' },
};

/** One made-up request or notification: the body and the headers its era needs. */
interface Shot {
  readonly body: Record<string, unknown>;
  readonly headers: Record<string, string>;
}

/**
 * The shots of round `tag`: `count` × 3 distinct method names (2025 requests, 2026 requests, notifications) and, for
 * one in five, made-up tool, prompt and resource names in either era; names never repeat across rounds.
 */
function shots(tag: string, count: number, session: string): Shot[] {
  const legacy = { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY_VERSION };
  const out: Shot[] = [];
  let id = 0;
  const legacyRequest = (method: string, params: Record<string, unknown> = {}) =>
    out.push({ body: { jsonrpc: '2.0', id: ++id, method, params }, headers: legacy });
  const modernRequest = (method: string, params: Record<string, unknown> = {}, name?: string) => {
    const headers: Record<string, string> = { 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': method };
    if (name !== undefined) headers['mcp-name'] = name;
    out.push({ body: { jsonrpc: '2.0', id: ++id, method, params: { ...params, _meta: META } }, headers });
  };
  for (let i = 0; i < count; i++) {
    const n = `${tag}${i}`;
    // Three distinct method names each time: one per era, and a notification.
    legacyRequest(i % 2 === 0 ? `made/up-${n}` : `com.example${n}/call`);
    modernRequest(i % 2 === 0 ? `com.example${n}/call` : `made/up-${n}`);
    out.push({ body: { jsonrpc: '2.0', method: `notifications/made-up-${n}` }, headers: legacy });
    if (i % 5 !== 0) continue;
    legacyRequest('tools/call', { name: `no-such-tool-${n}`, arguments: {} });
    modernRequest('tools/call', { name: `no-such-tool-${n}`, arguments: {} }, `no-such-tool-${n}`);
    legacyRequest('prompts/get', { name: `no-such-prompt-${n}` });
    modernRequest('resources/read', { uri: `file:///made/up/${n}` });
  }
  return out;
}

/**
 * Sends round `tag` (`count` × 3 made-up method names and more, see `shots`) to `endpoint`, 16 at a time; resolves with the number
 * of requests sent. Rejects if serve answers any with a 5xx status (or none).
 */
export async function sendMadeUpNames(endpoint: string, tag: string, count: number): Promise<number> {
  const session = await openLegacySession(endpoint);
  const all = shots(tag, count, session);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < all.length) {
      const shot = all[next++] as Shot;
      const status = await post(endpoint, shot.body, shot.headers);
      // A 2026-07-28 refusal comes with a 4xx status (404 for -32601, 400 for -32602).
      if (status < 200 || status >= 500)
        throw new Error(`serve answered ${status} to ${JSON.stringify(shot.body)}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return all.length;
}

/** The series of a Prometheus text exposition: every line that is not a comment or blank. */
export function seriesOf(text: string): string[] {
  return text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
}

export function closeMadeUpAgent(): void {
  agent.destroy();
}

// A lean load generator for the workers workload: each client is one keep-alive TCP connection that sends a
// prebuilt HTTP/1.1 POST of a 2026-07-28 `tools/call` (no session, so every request is the same bytes) and
// reads the answer by its Content-Length. node:http's client cost 70-170 µs of CPU per call here (the most
// with the 1 ms tool), which on 2 cores takes much of the second core away from `--workers 2`; this one
// costs about a third of that.
import { connect } from 'node:net';
import { callParams, modernCallHeaders } from '../era.mjs';

const open = (port) =>
  new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, noDelay: true }, () => resolve(socket));
    socket.once('error', reject);
  });

class RawClient {
  #port;
  #socket;
  #request;
  #expect;
  #text = '';
  #waiting;

  constructor(port, socket, request, expect) {
    this.#port = port;
    this.#request = request;
    this.#expect = expect;
    this.#use(socket);
  }

  /** One call; a connection the peer closed while idle is opened again first, as any HTTP client does. */
  async call() {
    if (this.#socket.destroyed) this.#use(await open(this.#port));
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
      this.#socket.write(this.#request);
    });
  }

  #use(socket) {
    this.#socket = socket;
    this.#text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => this.#read(chunk));
    socket.on('error', (error) => this.#settle(error));
    socket.on('close', () => this.#settle(new Error('the connection closed before the answer')));
  }

  close() {
    this.#socket.destroy();
  }

  #read(chunk) {
    this.#text += chunk;
    const end = this.#text.indexOf('\r\n\r\n');
    if (end === -1) return;
    const head = this.#text.slice(0, end);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (length === null) {
      this.#settle(new Error(`answer without Content-Length: ${head.slice(0, 300)}`));
      return;
    }
    const total = end + 4 + Number(length[1]);
    if (this.#text.length < total) return;
    const body = Buffer.from(this.#text.slice(end + 4, total), 'latin1').toString('utf8');
    this.#text = this.#text.slice(total);
    if (!head.startsWith('HTTP/1.1 200')) {
      this.#settle(new Error(`${head.split('\r\n')[0]}: ${body.slice(0, 300)}`));
      return;
    }
    const reply = JSON.parse(body);
    if (reply.result?.content?.[0]?.text !== this.#expect) {
      this.#settle(new Error(`unexpected answer to tools/call: ${body.slice(0, 300)}`));
      return;
    }
    this.#settle();
  }

  #settle(error) {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting === undefined) return;
    if (error) waiting.reject(error);
    else waiting.resolve();
  }
}

/** `count` connections to 127.0.0.1:`port`, each calling `target.tool` in the 2026-07-28 era. */
export async function openRawClients(port, target, count) {
  const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${callParams(target, 'modern')}}`;
  const headers = {
    host: `127.0.0.1:${port}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...modernCallHeaders(target.tool),
    'content-length': String(Buffer.byteLength(body)),
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  const request = Buffer.from(`POST /mcp HTTP/1.1\r\n${lines.join('')}\r\n${body}`);
  const clients = [];
  for (let i = 0; i < count; i++) clients.push(new RawClient(port, await open(port), request, target.expect));
  return {
    clients,
    close: () => {
      for (const c of clients) c.close();
    },
  };
}

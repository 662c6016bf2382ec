// The stdio load generator: one child process, newline-delimited JSON requests, `inflight` kept in flight.
// The same code drives every target, so only the server differs between figures. In the modern era there
// is no handshake and every call carries the 2026-07-28 envelope. Two client patterns (CLIENTS): 'batch'
// writes every request it sends at one moment in one `write`; 'each' writes one message per `write`, as the
// official SDK clients' stdio transports do.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { callParams, LEGACY_VERSION } from './era.mjs';
import { memoryOf } from './proc.mjs';

/** The client patterns, with the words the tables use for them. */
export const CLIENTS = {
  batch: 'batching client (one write per burst)',
  each: 'per-message client (one write per message, as the SDK clients)',
};

export class StdioPeer {
  /**
   * @param {{command: string, args: string[], modernArgs?: string[], env?: object, tool: string, arguments: object, expect: string}} target
   * @param {'legacy' | 'modern'} era
   */
  constructor(target, era = 'legacy') {
    this.target = target;
    this.era = era;
    const args = era === 'modern' ? (target.modernArgs ?? target.args) : target.args;
    this.child = spawn(target.command, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...target.env },
    });
    this.stderr = '';
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (text) => {
      this.stderr = (this.stderr + text).slice(-4000);
    });
    this.child.stdout.setEncoding('utf8');
    this.pending = '';
    this.onLine = undefined;
    this.exited = new Promise((resolve) =>
      this.child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    this.exited.then(({ code, signal }) => {
      this.fail?.(new Error(`server exited (code ${code}, signal ${signal}): ${this.stderr.slice(-800)}`));
    });
    this.child.stdout.on('data', (chunk) => this.#onData(chunk));
    this.nextId = 1;
    this.callTail = `,"method":"tools/call","params":${callParams(target, era)}}\n`;
  }

  get pid() {
    return this.child.pid;
  }

  #onData(chunk) {
    this.pending += chunk;
    let start = 0;
    let nl = this.pending.indexOf('\n', start);
    const lines = [];
    while (nl !== -1) {
      if (nl > start) lines.push(this.pending.slice(start, nl));
      start = nl + 1;
      nl = this.pending.indexOf('\n', start);
    }
    this.pending = this.pending.slice(start);
    if (lines.length > 0) this.onLine?.(lines);
  }

  #timeout(ms, label) {
    return setTimeout(() => this.fail?.(new Error(`${label}: no answer in ${ms} ms. ${this.stderr}`)), ms);
  }

  /** Send one request and wait for its answer (used for the handshake). */
  request(method, params, ms = 30_000) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = this.#timeout(ms, method);
      this.fail = reject;
      this.onLine = (lines) => {
        for (const line of lines) {
          const msg = JSON.parse(line);
          if (msg.id !== id) continue;
          clearTimeout(timer);
          this.onLine = undefined;
          if (msg.error) reject(new Error(`${method}: ${JSON.stringify(msg.error)}`));
          else resolve(msg.result);
        }
      };
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  /** The handshake; `ms` bounds the wait for the server to start and answer (longer under valgrind). */
  async initialize(ms = 30_000) {
    if (this.era === 'modern') return undefined;
    const result = await this.request(
      'initialize',
      {
        protocolVersion: LEGACY_VERSION,
        capabilities: {},
        clientInfo: { name: 'entropic-bench', version: '0.0.0' },
      },
      ms,
    );
    this.child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    return result;
  }

  /**
   * Issue `calls` tools/call requests with `inflight` outstanding at any moment, written as `client` says
   * (CLIENTS). Returns elapsed milliseconds and each call's latency in microseconds.
   */
  run(calls, inflight, client = 'batch') {
    if (!(client in CLIENTS)) throw new Error(`unknown client pattern "${client}"`);
    const each = client === 'each';
    const firstId = this.nextId;
    this.nextId += calls;
    const sentAt = new Float64Array(calls);
    const latencies = new Float64Array(calls);
    const expect = this.target.expect;
    const tail = this.callTail;
    let sent = 0;
    let done = 0;
    const stdin = this.child.stdin;
    const sendMore = (count) => {
      let out = '';
      const now = performance.now();
      for (let i = 0; i < count && sent < calls; i++, sent++) {
        sentAt[sent] = now;
        const line = `{"jsonrpc":"2.0","id":${firstId + sent}${tail}`;
        if (each) stdin.write(line);
        else out += line;
      }
      if (out.length > 0) stdin.write(out);
    };
    return new Promise((resolve, reject) => {
      const timer = this.#timeout(120_000 + calls, 'tools/call run');
      this.fail = (error) => {
        clearTimeout(timer);
        reject(error);
      };
      const started = performance.now();
      this.onLine = (lines) => {
        const now = performance.now();
        for (const line of lines) {
          const msg = JSON.parse(line);
          const index = msg.id - firstId;
          if (!(index >= 0 && index < calls)) continue;
          const text = msg.result?.content?.[0]?.text;
          if (text !== expect) {
            this.fail(new Error(`unexpected answer to tools/call: ${line.slice(0, 400)}`));
            return;
          }
          latencies[index] = (now - sentAt[index]) * 1000;
          done++;
        }
        if (done === calls) {
          clearTimeout(timer);
          this.onLine = undefined;
          this.fail = undefined;
          resolve({ elapsedMs: now - started, latencies });
          return;
        }
        sendMore(calls - sent > 0 ? inflight - (sent - done) : 0);
      };
      sendMore(inflight);
    });
  }

  memory(field) {
    return memoryOf(this.child.pid, field);
  }

  async close() {
    this.fail = undefined;
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await this.exited;
    clearTimeout(timer);
  }
}

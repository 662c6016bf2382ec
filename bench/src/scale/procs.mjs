// The processes of the scale workloads: a real redis-server, a real HAProxy (round robin, no stickiness) and
// `entropic-mcp serve --http` with the scale tools, each on a free port, all stopped at the end.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchDir, rootDir } from '../targets.mjs';

const CLI = join(rootDir, 'packages', 'serve', 'dist', 'cli.js');
const TOOLS = join(benchDir, 'servers', 'scale-tools.mjs');

/** What is missing for the scale workloads (undefined: nothing). */
export function missingParts() {
  const found = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
  const absent = ['redis-server', 'haproxy'].filter((cmd) => !found(cmd));
  return absent.length > 0 ? `not installed: ${absent.join(', ')}` : undefined;
}

export function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
    s.on('error', fail);
  });
}

const portOpen = (port) =>
  new Promise((ok) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      ok(true);
    });
    socket.on('error', () => ok(false));
  });

export class Processes {
  #children = [];
  #dir = mkdtempSync(join(tmpdir(), 'emcp-scale-'));

  /** Start `cmd` and resolve once its output matches `ready`; rejects with its output if it exits first. */
  start(cmd, args, ready) {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.#children.push(child);
    let text = '';
    return new Promise((ok, fail) => {
      const look = (chunk) => {
        text += chunk.toString();
        if (ready.test(text)) ok(child);
      };
      child.stdout.on('data', look);
      child.stderr.on('data', look);
      child.once('error', fail);
      child.once('exit', (code) => fail(new Error(`${cmd} exited ${code}:\n${text.slice(-2000)}`)));
    });
  }

  async redis() {
    const port = await freePort();
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    const child = await this.start('redis-server', [...args, '--dir', this.#dir], /Ready to accept/);
    return { url: `redis://127.0.0.1:${port}`, pid: child.pid };
  }

  /** `serve --http` with the scale tools and `args` (e.g. --redis, --workers); `node` flags go first. */
  async serve(args, nodeFlags = []) {
    const port = await freePort();
    const argv = [
      ...nodeFlags,
      CLI,
      'serve',
      '--http',
      `127.0.0.1:${port}`,
      '--tools-module',
      TOOLS,
      ...args,
    ];
    const child = await this.start(process.execPath, argv, /listening on|workers serving/);
    return { port, child, pid: child.pid };
  }

  /** HAProxy in front of `backends` (ports), round robin, keep-alive on both sides. */
  async haproxy(backends) {
    const port = await freePort();
    const file = join(this.#dir, `haproxy-${port}.cfg`);
    const servers = backends.map((b, i) => `  server s${i} 127.0.0.1:${b}`).join('\n');
    writeFileSync(
      file,
      [
        'global',
        '  maxconn 4096',
        '  nbthread 1',
        'defaults',
        '  mode http',
        '  timeout connect 2s',
        '  timeout client 10m',
        '  timeout server 10m',
        '  timeout http-keep-alive 10m',
        '  option http-keep-alive',
        '  retries 3',
        '  retry-on conn-failure empty-response', // a kept-alive server connection closed as it was reused
        'frontend f',
        `  bind 127.0.0.1:${port}`,
        '  default_backend b',
        'backend b',
        '  balance roundrobin',
        servers,
        '',
      ].join('\n'),
    );
    const child = spawn('haproxy', ['-db', '-f', file], { stdio: 'ignore' });
    this.#children.push(child);
    for (let i = 0; i < 200 && !(await portOpen(port)); i++) await new Promise((r) => setTimeout(r, 25));
    return { port, child, pid: child.pid };
  }

  stop(child) {
    return new Promise((ok) => {
      if (child.exitCode !== null || child.signalCode !== null) return ok();
      child.once('exit', () => ok());
      child.kill('SIGTERM');
    });
  }

  close() {
    for (const child of this.#children) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(this.#dir, { recursive: true, force: true });
  }
}

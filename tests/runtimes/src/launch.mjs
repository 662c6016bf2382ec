// Starts an example server of examples/runtimes/ on the real Bun, Deno or workerd binary from npm, on a port the
// kernel picks, and hands back its endpoint URL once the runtime says it listens. Shared by the tests and the bench.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const examples = fileURLToPath(new URL('../../../examples/runtimes/', import.meta.url));

/** The binary a package of this one's devDependencies ships, or an error saying what to install. */
function binary(pkg, path) {
  let dir;
  try {
    dir = dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    throw new Error(`${pkg} is not installed: run pnpm install (it is a devDependency of tests/runtimes)`);
  }
  const file = join(dir, path);
  if (!existsSync(file)) throw new Error(`${pkg} is installed but ships no ${path}`);
  return file;
}

/** How each runtime is started, and how it says where it listens. */
export const RUNTIMES = {
  bun: {
    title: 'Bun 1.4.4',
    command: () => binary('@oven/bun-linux-x64', 'bin/bun'),
    args: ['server.ts'],
    cwd: join(examples, 'bun'),
    ready: 'stdout',
  },
  deno: {
    title: 'Deno 2.9.6',
    command: () => binary('@deno/linux-x64-glibc', 'deno'),
    args: ['run', '--allow-net', '--allow-env', '--allow-read', '--unstable-no-legacy-abort', 'server.ts'],
    cwd: join(examples, 'deno'),
    ready: 'stdout',
  },
  workers: {
    title: 'workerd 1.20261117.1',
    command: () => binary('@cloudflare/workerd-linux-64', 'bin/workerd'),
    // workerd bundles wrangler.json's `main` with esbuild (the example's devDependency), then reports the
    // port the kernel gave its socket on the control descriptor (fd 3).
    args: ['serve', 'wrangler.json', '--socket-addr', 'http=127.0.0.1:0', '--control-fd', '3'],
    cwd: join(examples, 'workers'),
    ready: 'control',
  },
};

const ENDPOINT = /MCP endpoint: (http:\/\/\S+)/;

/**
 * Starts `name`'s example (or the same files in `cwd`) with PORT=0 and resolves with `{ url, pid, stop, output }`
 * once it listens; rejects with the runtime's output when it exits first or stays silent for `timeoutMs`.
 */
export function launch(name, { timeoutMs = 60_000, cwd } = {}) {
  const runtime = RUNTIMES[name];
  if (runtime === undefined)
    throw new Error(`unknown runtime ${name}: one of ${Object.keys(RUNTIMES).join(', ')}`);
  const child = spawn(runtime.command(), runtime.args, {
    cwd: cwd ?? runtime.cwd,
    env: { ...process.env, PORT: '0', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const ready = new Promise((resolve, reject) => {
    let control = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${runtime.title} did not listen within ${timeoutMs} ms; its output:\n${output}`));
    }, timeoutMs);
    const done = (url) => {
      clearTimeout(timer);
      resolve(url);
    };
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const found = runtime.ready === 'stdout' ? ENDPOINT.exec(output) : null;
      if (found) done(found[1]);
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.stdio[3].setEncoding('utf8');
    child.stdio[3].on('data', (chunk) => {
      control += chunk;
      for (const line of control.split('\n')) {
        if (!line.startsWith('{')) continue;
        try {
          const event = JSON.parse(line);
          if (event.event === 'listen' && event.socket === 'http') done(`http://127.0.0.1:${event.port}/mcp`);
        } catch {
          // a line not yet whole
        }
      }
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(
        new Error(`${runtime.title} exited (${signal ?? code}) before it listened; its output:\n${output}`),
      );
    });
  });
  return ready.then((url) => ({
    url,
    pid: child.pid,
    output: () => output,
    /** SIGTERM, then SIGKILL if the runtime is still there after `graceMs`. */
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  }));
}

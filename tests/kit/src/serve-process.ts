/**
 * `entropic-mcp serve` as a child process of a test: the built CLI of the workspace's @entropic-mcp/serve,
 * started over HTTP on a free port (`startHttp`) or run to its exit (`runServe`), and the example plugins of the
 * workspace build.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** The serve package's folder (the default working folder of a serve child). */
export const SERVE_ROOT = join(REPO_ROOT, 'packages', 'serve');
/** The built `entropic-mcp` bin (`pnpm build` makes it). */
export const CLI = join(SERVE_ROOT, 'dist', 'cli.js');

/** The bundled example plugins as built by the workspace build: examples/plugins/<name>/build/*.so */
export function examplePlugins(): string[] {
  const root = join(REPO_ROOT, 'examples', 'plugins');
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, d.name, 'build')))
    .flatMap((d) =>
      readdirSync(join(root, d.name, 'build'))
        .filter((f) => f.endsWith('.so'))
        .map((f) => join(root, d.name, 'build', f)),
    )
    .sort();
}

export interface HttpServer {
  readonly url: string;
  readonly child: ChildProcess;
  stderr(): string;
  stdout(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `entropic-mcp serve ARGS --http LISTEN` (a free port by default) and waits for the URL it prints. */
export function startHttp(
  args: readonly string[],
  cwd = SERVE_ROOT,
  listen = '127.0.0.1:0',
  env?: Record<string, string>,
): Promise<HttpServer> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args, '--http', listen], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(env === undefined ? {} : { env: { ...process.env, ...env } }),
  });
  let text = '';
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return new Promise((ready, fail) => {
    child.stderr.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on (http:\/\/[^\s"\\]+)/.exec(text); // plain or JSON lines
      if (match) {
        ready({
          url: match[1]!,
          child,
          stderr: () => text,
          stdout: () => out,
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    exited.then((code) => fail(new Error(`serve exited with ${code} before listening:\n${text}`)));
  });
}

/** Runs `entropic-mcp serve ARGS` expecting it to exit on its own (a refused start-up). */
export function runServe(
  args: readonly string[],
  timeoutMs = 60_000,
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((done) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      done({ code, stderr, stdout });
    }),
  );
}

/** The direct children of a process (Linux /proc), e.g. the plugin host processes of a serve child. */
export function childPids(pid: number): number[] {
  const tasks = `/proc/${pid}/task`;
  if (!existsSync(tasks)) return [];
  return readdirSync(tasks).flatMap((task) => {
    try {
      return readFileSync(join(tasks, task, 'children'), 'utf8')
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  });
}

/** Whether a process id is still alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A tools module of long-running, task-capable tools (`serve --tools`), for the task tests. */
export const TASK_TOOLS = join(REPO_ROOT, 'tests', 'kit', 'fixtures', 'task-tools.mjs');

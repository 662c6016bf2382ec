/** Shared pieces of the `serve` tests: fixture plugins compiled here, a real `entropic-mcp serve` child, SDK clients. */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const LOADER_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const REPO_ROOT = resolve(LOADER_ROOT, '../..');
export const CLI = join(LOADER_ROOT, 'dist', 'cli.js');
export const INCLUDE_DIR = join(
  realpathSync(dirname(createRequire(import.meta.url).resolve('@entropic-mcp/abi-headers/package.json'))),
  'include',
);

export function tempDir(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), `entropic-${prefix}-`)));
}

/** Compiles the C fixture `source` (a path under test/fixtures/) as plugin `name` into `out`; returns `out`. */
export function compileFixture(source: string, name: string, out: string, flags: string[] = []): string {
  execFileSync('cc', [
    '-std=c11',
    '-D_DEFAULT_SOURCE',
    `-DPLUGIN_NAME="${name}"`,
    ...flags,
    '-fPIC',
    '-shared',
    `-I${INCLUDE_DIR}`,
    '-o',
    out,
    join(LOADER_ROOT, 'test', 'fixtures', source),
  ]);
  return out;
}

/**
 * Compiles test/fixtures/serve/sturdy.c as plugin `name` into `dir`; returns the absolute .so path.
 * `defines`: `BAD_SCHEMA` adds a tool whose inputSchema no JSON Schema validator accepts.
 */
export function buildFixture(
  dir: string,
  name = 'fx',
  file = `lib${name}.so`,
  defines: string[] = [],
): string {
  const flags = [...defines.map((d) => `-D${d}`), '-fvisibility=hidden'];
  return compileFixture(join('serve', 'sturdy.c'), name, join(dir, file), flags);
}

/** A file named like a plugin that is not one (not ELF): loading it must fail. */
export function notAPlugin(dir: string): string {
  const out = join(dir, 'libbroken.so');
  writeFileSync(out, 'this is not a shared library\n');
  return out;
}

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

export function newClient(): Client {
  return new Client({ name: 'entropic-serve-test', version: '1.0.0' });
}

export interface StdioServer {
  readonly client: Client;
  stderr(): string;
  close(): Promise<void>;
}

/** `entropic-mcp serve ARGS` over stdio, driven by the official SDK client. */
export async function connectStdio(
  args: readonly string[],
  cwd = LOADER_ROOT,
  env?: Record<string, string>,
): Promise<StdioServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', ...args],
    cwd,
    stderr: 'pipe',
    ...(env === undefined ? {} : { env: { ...(process.env as Record<string, string>), ...env } }),
  });
  let text = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const client = newClient();
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`could not connect over stdio: ${(error as Error).message}\nserver stderr:\n${text}`);
  }
  return { client, stderr: () => text, close: () => client.close() };
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
  cwd = LOADER_ROOT,
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

export async function connectHttp(url: string): Promise<Client> {
  const client = newClient();
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
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

/** The text of a tools/call result's first content block. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content[0]?.text ?? '';
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

export async function waitFor(check: () => boolean, timeoutMs = 20_000, what = 'condition'): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

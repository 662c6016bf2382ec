// `serve` started through a launcher that does not pass SIGTERM on (`npm start`, `npx`, a shell script): SIGTERM to
// the launcher ends the launcher, and serve, reparented, notices its parent is gone, closes its plugins and frees
// its port. `npm start` installs and builds before it serves; on a built workspace both are no-ops (a few seconds),
// which the test checks first rather than wait minutes for a build under the other tests.
import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { alive, CLI, childPids, examplePlugins, REPO_ROOT, waitFor } from './support/serve-helpers.js';
import { staleBuilds } from './support/workspace-build.js';

const ECHO = examplePlugins().find((p) => p.endsWith('/echo.so'));

/** Every process under `pid`, depth first. */
function descendants(pid: number): number[] {
  return childPids(pid).flatMap((child) => [child, ...descendants(child)]);
}

/** Whether something accepts connections on the port (false once it is freed). */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Starts `launcher` (whose descendant is serve on HTTP), waits for the URL; returns the port and serve's pids. */
async function launch(
  command: string,
  args: string[],
): Promise<{ launcher: ChildProcess; port: number; serve: number[] }> {
  const launcher = spawn(command, args, { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let text = '';
  const port = await new Promise<number>((resolve, reject) => {
    launcher.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(text);
      if (match) resolve(Number(match[1]));
    });
    launcher.once('exit', (code) =>
      reject(new Error(`the launcher exited (${code}) before serve listened:\n${text}`)),
    );
  });
  return { launcher, port, serve: descendants(launcher.pid as number) };
}

/** The echo example, or a failure naming what to build (the tests never skip for want of a build). */
function echo(): string {
  expect(ECHO, 'examples/plugins/echo/build/echo.so is missing: run `pnpm build` first').toBeDefined();
  return ECHO as string;
}

/** Starts serve through the launcher, sends the launcher SIGTERM, and waits for serve to end and free its port. */
async function orphanedServeEnds(command: string, args: string[]): Promise<void> {
  const { launcher, port, serve } = await launch(command, args);
  expect(serve.length).toBeGreaterThan(0);
  expect(await listening(port)).toBe(true);
  const launcherGone = new Promise((resolve) => launcher.once('exit', resolve));
  launcher.kill('SIGTERM');
  await launcherGone;
  await waitFor(() => serve.every((pid) => !alive(pid)), 30_000, 'serve and its plugin hosts to exit');
  expect(await listening(port)).toBe(false);
}

describe('serve whose launcher got SIGTERM', () => {
  it.each([
    ['npx', ['--no-install', 'entropic-mcp']],
    ['sh', ['-c', `"${process.execPath}" "${CLI}" "$@"; true`, 'sh']],
  ])(
    'through %s: the launcher ends, then serve ends and frees its port',
    async (command, prefix) => {
      await orphanedServeEnds(command, [...prefix, 'serve', '--plugin', echo(), '--http', '127.0.0.1:0']);
    },
    60_000,
  );

  it("through npm start (the README's Quick start): npm ends, then serve ends and frees its port", async () => {
    echo();
    expect(
      staleBuilds(),
      '`npm start` would build these first: run `pnpm build` so the test does not wait for a build',
    ).toEqual([]);
    // The examples on a free port (`--port 0`), after an install and a build that find nothing to do.
    await orphanedServeEnds('npm', ['start', '--', '--port', '0']);
  }, 120_000);
});

// The isolated host's channel: real pipes when the addon is there, Node's stdio sockets without it, and in both
// cases every answer the host wrote is delivered before its end is reported.
import { spawnSync } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { SecretMasker } from '@entropic-mcp/server';
import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { afterEach, describe, expect, it } from 'vitest';
import { hostCandidates } from '../src/addon/find-host.js';
import { type HostExit, HostProcess } from '../src/isolated/host-process.js';
import { loadPlugin } from '../src/load.js';
import { LOADER_ROOT } from './support/inprocess-helpers.js';

const LATE_HOST = join(LOADER_ROOT, 'test', 'fixtures', 'hosts', 'answer-after-exit.sh');
const hosts: HostProcess[] = [];
afterEach(() => {
  for (const host of hosts.splice(0)) host.kill();
});

function builtHost(): string {
  const host = hostCandidates().find((p) => spawnSync('test', ['-x', p]).status === 0);
  if (host === undefined) throw new Error('entropic_plugin_host is not built');
  return host;
}

function start(hostPath: string, pluginPath: string): HostProcess {
  const masker = new SecretMasker();
  const host = new HostProcess({
    hostPath,
    pluginPath,
    memoryLimitMb: undefined,
    onStderr: () => {},
    masker,
  });
  hosts.push(host);
  return host;
}

/**
 * How many distinct sockets a process holds open. The host keeps its channel on private fds and points fd 1 at its
 * stderr, which Node always makes a socket: 1 when the channel is on pipes, 3 on Node's stdio sockets.
 */
function socketsOf(pid: number): number {
  const targets = readdirSync(`/proc/${pid}/fd`).map((fd) => readlinkSync(`/proc/${pid}/fd/${fd}`));
  return new Set(targets.filter((t) => t.startsWith('socket:'))).size;
}

describe('the isolated host channel', () => {
  it('runs on pipes when the addon can make them, and calls go through', async () => {
    const host = start(builtHost(), fixture('raw-answers'));
    await host.ready;
    expect(socketsOf(host.pid!)).toBe(1);
    const answers: string[] = [];
    const answered = new Promise<void>((resolve) => {
      host.attach({
        onAnswer: (id, status, buf, start, end) => {
          answers.push(`${id}:${status}:${buf.toString('utf8', start, end)}`);
          if (answers.length === 2) resolve();
        },
        onExit: () => {},
      });
    });
    host.write('E1\0echo\0{"a":1}\0E2\0echo\0{"b":2}\0', 2);
    await answered;
    expect(answers).toHaveLength(2);
    // raw-answers' echo returns the arguments as its result text, so they come back escaped in the answer JSON
    expect(answers[0]).toMatch(/^1:0:\{"result":"\{\\"a\\":1\}"/);
    expect(answers[1]).toMatch(/^2:0:\{"result":"\{\\"b\\":2\}"/);
  });

  it('reports the end only after the last answer the host wrote, even one that comes after its exit', async () => {
    const host = start(LATE_HOST, '/unused.so');
    const events: string[] = [];
    const ended = new Promise<HostExit>((resolve) => {
      host.attach({
        onAnswer: (id, status, buf, start, end) =>
          events.push(`answer ${id} ${status} ${buf.toString('utf8', start, end)}`),
        onExit: (exit) => {
          events.push(`exit ${exit.exitCode}`);
          resolve(exit);
        },
      });
    });
    await expect(host.ready).rejects.toThrow(/exited with status 3 while loading/);
    await ended;
    expect(events).toEqual(['answer 7 5 late', 'exit 3']);
  });

  it('keeps no descriptor of a host that ended: ten restarts later this process holds as many as before', async () => {
    const plugin = await loadPlugin(fixture('crashy'), { isolation: 'process' });
    try {
      const crashAndRestart = async () => {
        await expect(plugin.execute('exit', {})).rejects.toThrow(/exited with status 7/);
        await plugin.execute('echo', {});
      };
      await crashAndRestart();
      const before = readdirSync('/proc/self/fd').length;
      for (let i = 0; i < 10; i++) await crashAndRestart();
      // One leaked pipe end per host would add ten; allow a little for whatever else the worker opens meanwhile.
      expect(readdirSync('/proc/self/fd').length - before).toBeLessThan(5);
    } finally {
      await plugin.close();
    }
  });

  it('falls back to the stdio sockets without the addon, and still serves calls', () => {
    const script = `
      const { readdirSync, readFileSync, readlinkSync } = await import('node:fs');
      const { loadPlugin } = await import(${JSON.stringify(join(LOADER_ROOT, 'dist', 'load.js'))});
      const plugin = await loadPlugin(${JSON.stringify(fixture('raw-answers'))}, { isolation: 'process' });
      const answer = await plugin.execute('echo', { x: 'y' });
      const host = readFileSync('/proc/self/task/' + process.pid + '/children', 'utf8').trim().split(/\\s+/)[0];
      const fds = readdirSync('/proc/' + host + '/fd').map((fd) => readlinkSync('/proc/' + host + '/fd/' + fd));
      const sockets = new Set(fds.filter((f) => f.startsWith('socket:'))).size;
      console.log(JSON.stringify({ result: answer.result, sockets }));
      await plugin.close();
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, ENTROPIC_LOADER_ADDON: '/nonexistent/entropic_loader.node' },
      timeout: 60_000,
    });
    expect(child.stderr).toBe('');
    const reported = JSON.parse(child.stdout) as { result: string; sockets: number };
    expect(reported.result).toContain('"x":"y"');
    expect(reported.sockets).toBe(4); // requests, answers, stderr and cancellations
  });
});

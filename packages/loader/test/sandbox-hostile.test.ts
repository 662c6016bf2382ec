// The OS sandbox against a hostile plugin, in both plugin APIs: each rule refuses, and its allowed counterpart works.
// The suite runs as root, which bypasses file permissions but not Landlock or seccomp: the secret outside `read` is
// root's own 0600 file, so only the sandbox can refuse it. Another plugin's calls are answered throughout.

import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlugin, type Plugin, PluginError } from '../src/index.js';
import {
  type Arena,
  alive,
  attempt,
  freePort,
  HOSTILE,
  listening,
  makeArena,
  type Port,
  stderrSink,
} from './support/sandbox.js';

const OPEN_FILES = 8;

for (const api of ['plain', 'context'] as const) {
  describe(`sandbox, ${api} API: every rule and its allowed counterpart`, () => {
    let arena: Arena;
    let listed: Port;
    let unlisted: Port;
    let bindable: number;
    let p: Plugin;
    const logs: unknown[] = [];
    const voice = { voice: { log: (_level: string, data: unknown) => void logs.push(data) } };
    const run = (what: string, args: Record<string, unknown> = {}) =>
      p.execute('try', { what, ...args }, voice).then((a) => a.result);

    beforeAll(async () => {
      arena = makeArena();
      listed = await listening();
      unlisted = await listening();
      bindable = await freePort();
      p = await loadPlugin(HOSTILE[api](), {
        sandbox: {
          read: [arena.data],
          write: [arena.out],
          connect: [listed.port],
          bind: [bindable],
          openFiles: OPEN_FILES,
        },
        onStderr: () => {},
      });
    }, 60_000);
    afterAll(async () => {
      await p?.close();
      await listed?.close();
      await unlisted?.close();
      arena?.remove();
    });

    it('reads inside `read`, and not a secret outside it', async () => {
      expect(await run('read', { path: arena.file })).toBe('ok the public text');
      expect(await run('read', { path: arena.secret })).toBe(`refused EACCES ${arena.secret}`);
      expect(await run('read', { path: '/etc/passwd' })).toBe('refused EACCES /etc/passwd');
    });

    it('writes inside `write` only; a `read` folder stays read-only', async () => {
      expect(await run('write', { path: `${arena.out}/made.txt` })).toBe(`ok ${arena.out}/made.txt`);
      expect(await run('write', { path: `${arena.data}/made.txt` })).toMatch(/^refused EACCES /);
      expect(await run('write', { path: `${arena.root}/made.txt` })).toMatch(/^refused EACCES /);
    });

    it('connects to a listed port, not to another port that is listening; binds a listed port only', async () => {
      expect(await run('connect', { n: listed.port })).toBe('ok connect');
      expect(await run('connect', { n: unlisted.port })).toBe('refused EACCES connect');
      expect(await run('bind', { n: bindable })).toBe('ok bind');
      expect(await run('bind', { n: await freePort() })).toBe('refused EACCES bind');
    });

    it('refuses UDP and unix sockets', async () => {
      expect(await run('udp')).toBe('refused EPERM udp');
      expect(await run('unix')).toBe('refused EPERM unix');
    });

    it('refuses execve and system(): no program starts', async () => {
      expect(await run('exec')).toBe('refused EPERM execve');
      expect(await run('system')).toBe('system 127'); // the C library's answer when the shell cannot start
    });

    it('refuses new processes (a fork bomb makes none) and leaves threads free when `processes` is not set', async () => {
      expect(await run('forkbomb', { n: 50 })).toBe('made 0 EPERM');
      expect(await run('threads', { n: 20 })).toBe('made 20 -');
    });

    it('refuses ptrace, mount and unshare, and signals to processes outside the sandbox', async () => {
      expect(await run('ptrace')).toBe('refused EPERM ptrace');
      expect(await run('mount')).toBe('refused EPERM mount');
      expect(await run('unshare')).toBe('refused EPERM unshare');
      expect(await run('kill', { n: process.pid })).toBe('refused EPERM kill');
      expect(await run('kill', { n: 0 })).toBe('ok kill'); // itself: inside the sandbox
    });

    it(`opens exactly ${OPEN_FILES} descriptors beyond the host's own`, async () => {
      expect(await run('files', { n: 1000 })).toBe(`opened ${OPEN_FILES} EMFILE`);
    });

    it('gains nothing by lifting its limits: setrlimit, prctl and a second Landlock ruleset', async () => {
      const before = await run('limits');
      expect(await run('lift', { path: arena.secret })).toBe(
        `cpu:EPERM files:EPERM memory:EPERM nnp:EINVAL ambient:EPERM landlock:ok then refused EACCES ${arena.secret}`,
      );
      expect(await run('limits')).toBe(before);
      expect(await run('files', { n: 1000 })).toBe(`opened ${OPEN_FILES} EMFILE`);
    });

    if (api === 'context') {
      it('its context log still reaches the caller, saying what it tried', async () => {
        logs.length = 0;
        const result = await run('read', { path: arena.secret });
        expect(logs).toEqual([{ outcome: result }]);
      });
    }
  });

  describe(`sandbox, ${api} API: limits`, () => {
    let other: Plugin;
    beforeAll(async () => {
      other = await loadPlugin(fixture('crashy'), { onStderr: () => {} });
    });
    afterAll(async () => {
      await other?.close();
    });
    /** Another plugin's calls, one after another while `work` runs: every one must be answered. */
    async function meanwhile<T>(work: Promise<T>): Promise<T> {
      let done = false;
      const finished = () => {
        done = true;
      };
      work.then(finished, finished);
      let answered = 0;
      while (!done) {
        expect(await other.execute('echo', { text: 'still here' })).toMatchObject({
          result: '{"text":"still here"}',
        });
        answered++;
      }
      expect(answered).toBeGreaterThan(0);
      return work;
    }

    it('`processes: N` caps a fork bomb at N, and `exec: true` runs a program from a `read` path', async () => {
      const p = await loadPlugin(HOSTILE[api](), {
        sandbox: { processes: 3, exec: true, read: ['/usr/bin'] },
        onStderr: () => {},
      });
      try {
        expect(await meanwhile(attempt(p, 'forkbomb', { n: 50 }))).toBe('made 3 EAGAIN');
        expect(await attempt(p, 'threads', { n: 50 })).toBe('made 3 EAGAIN');
        expect(await attempt(p, 'spawn')).toBe('child exited 7');
        expect(await attempt(p, 'system')).toBe('system 7');
      } finally {
        await p.close();
      }
    }, 60_000);

    it('kills the processes the plugin left running once its host has ended', async () => {
      const p = await loadPlugin(HOSTILE[api](), { sandbox: { processes: 3 }, onStderr: () => {} });
      let pids: number[] = [];
      try {
        pids = (await attempt(p, 'orphans', { n: 2 })).split(' ').slice(1).map(Number);
        expect(pids).toHaveLength(2);
        expect(pids.filter(alive)).toEqual(pids);
      } finally {
        await p.close();
      }
      await expect.poll(() => pids.filter(alive), { timeout: 30_000 }).toEqual([]);
    }, 60_000);

    it('`processes: 0` allows no new thread either', async () => {
      const p = await loadPlugin(HOSTILE[api](), { sandbox: { processes: 0 }, onStderr: () => {} });
      try {
        expect(await attempt(p, 'threads', { n: 5 })).toBe('made 0 EAGAIN');
        expect(await attempt(p, 'forkbomb', { n: 5 })).toBe('made 0 EPERM');
      } finally {
        await p.close();
      }
    }, 60_000);

    it('an allocation past `memoryMb` fails inside the plugin, which goes on', async () => {
      const p = await loadPlugin(HOSTILE[api](), { sandbox: { memoryMb: 128 }, onStderr: () => {} });
      try {
        const got = Number((await meanwhile(attempt(p, 'alloc', { n: 1024 }))).split(' ')[1]);
        expect(got).toBeGreaterThan(0);
        expect(got).toBeLessThan(128);
        expect(await attempt(p, 'limits')).toMatch(/ memory 134217728$/);
      } finally {
        await p.close();
      }
    }, 60_000);

    it('spinning past `cpuSeconds` ends the host with SIGXCPU, named in the error; the next call gets a new host', async () => {
      const stderr = stderrSink();
      const p = await loadPlugin(HOSTILE[api](), { sandbox: { cpuSeconds: 1 }, onStderr: stderr.onStderr });
      try {
        const failure = await meanwhile(
          attempt(p, 'spin', { n: 30 }).then(
            () => undefined,
            (e: unknown) => e,
          ),
        );
        expect(failure).toBeInstanceOf(PluginError);
        expect(failure).toMatchObject({ code: 'ENTROPIC_PLUGIN_CRASHED', signal: 'SIGXCPU' });
        expect((failure as Error).message).toContain('its CPU time ran out: the sandbox cpuSeconds limit');
        expect(await attempt(p, 'limits')).toMatch(/^cpu 1 /);
      } finally {
        await p.close();
      }
    }, 120_000);
  });
}

describe('the same plugin without a sandbox does what the sandbox refuses (the fixture is not lying)', () => {
  it('opens UDP and unix sockets, unshares a user namespace, forks and signals the loader', async () => {
    const p = await loadPlugin(HOSTILE.plain(), { onStderr: () => {} });
    try {
      expect(await attempt(p, 'udp')).toBe('ok udp');
      expect(await attempt(p, 'unix')).toBe('ok unix');
      expect(await attempt(p, 'forkbomb', { n: 3 })).toBe('made 3 -');
      expect(await attempt(p, 'kill', { n: process.pid })).toBe('ok kill');
      expect(await attempt(p, 'unshare')).toBe('ok unshare');
    } finally {
      await p.close();
    }
  }, 60_000);
});

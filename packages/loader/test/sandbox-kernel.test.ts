// What the sandbox does on other systems: a kernel without Landlock, seccomp or a pids cgroup (simulated with
// ENTROPIC_SANDBOX_SIMULATE_MISSING, which the host reads) refuses the plugin by default, naming what is missing,
// and with `required: false` loads it with one warning naming what is not enforced. A server that is not root
// counts tasks with RLIMIT_NPROC in a user namespace. The libseccomp-written filter refuses what the built-in one
// does, and audit mode logs refusals instead of enforcing them.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadPlugin, type Plugin, PluginError, sandboxSupport } from '../src/index.js';
import { sweepHostCgroups } from '../src/sandbox/cgroup.js';
import {
  type Arena,
  alive,
  attempt,
  HOSTILE,
  LIBSECCOMP_HOST,
  listening,
  makeArena,
  NOBODY,
  NOBODY_HOST,
  type Port,
  stderrSink,
} from './support/sandbox.js';

const quiet = { onStderr: () => {} };

function simulateMissing(parts: string | undefined): void {
  if (parts === undefined) delete process.env.ENTROPIC_SANDBOX_SIMULATE_MISSING;
  else process.env.ENTROPIC_SANDBOX_SIMULATE_MISSING = parts;
}

/** The process warnings emitted while `work` runs, by code. */
async function warningsDuring(work: () => Promise<void>): Promise<{ code: string; message: string }[]> {
  const seen: { code: string; message: string }[] = [];
  const listener = (w: Error & { code?: string }) => {
    if (w.code?.startsWith('ENTROPIC_SANDBOX')) seen.push({ code: w.code, message: w.message });
  };
  process.on('warning', listener);
  try {
    await work();
    await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
  } finally {
    process.off('warning', listener);
  }
  return seen;
}

async function refusal(work: Promise<unknown>): Promise<PluginError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PluginError);
  return error as PluginError;
}

let arena: Arena;
let port: Port;
beforeAll(async () => {
  arena = makeArena();
  port = await listening();
});
afterAll(async () => {
  await port?.close();
  arena?.remove();
});
afterEach(() => simulateMissing(undefined));

describe('a kernel without Landlock', () => {
  it('refuses to load a plugin whose sandbox needs it, naming what is missing', async () => {
    simulateMissing('landlock');
    const error = await refusal(loadPlugin(HOSTILE.plain(), { ...quiet, sandbox: { read: [arena.data] } }));
    expect(error.code).toBe('ENTROPIC_SANDBOX_UNAVAILABLE');
    expect(error.message).toContain(
      'the read/write filesystem rules (Landlock, Linux 5.13; this kernel has none)',
    );
    expect(error.message).toContain('refusing signals to processes outside the sandbox (Landlock ABI 6');
    expect(error.message).toContain('"required" to false');
  });

  it('with `required: false` loads it with one warning for all its instances, and enforces the rest', async () => {
    simulateMissing('landlock');
    let p: Plugin | undefined;
    const warnings = await warningsDuring(async () => {
      p = await loadPlugin(HOSTILE.context(), { ...quiet, instances: 2, sandbox: { required: false } });
    });
    try {
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.code).toBe('ENTROPIC_SANDBOX_PARTIAL');
      expect(warnings[0]?.message).toContain('not enforced: the read/write filesystem rules');
      expect(p?.sandbox?.notEnforced).toHaveLength(2);
      expect(p?.sandbox?.enforced).toContain('no network (a network namespace of its own)');
      const plugin = p as Plugin;
      expect(await attempt(plugin, 'read', { path: arena.secret })).toBe('ok the secret'); // said, not enforced
      expect(await attempt(plugin, 'connect', { n: port.port })).toBe('refused ENETUNREACH connect');
      expect(await attempt(plugin, 'exec')).toBe('refused EPERM execve');
    } finally {
      await p?.close();
    }
  }, 60_000);

  it('without Landlock TCP rules (ABI 3), ports cannot be enforced; a sandbox with none gets no network', async () => {
    simulateMissing('landlock-net');
    const error = await refusal(loadPlugin(HOSTILE.plain(), { ...quiet, sandbox: { connect: [port.port] } }));
    expect(error.message).toContain('missing: the TCP connect/bind rules (Landlock ABI 4, Linux 6.7)');
    const sandbox = { read: [arena.data], required: false };
    const p = await loadPlugin(HOSTILE.plain(), { ...quiet, sandbox });
    try {
      expect(p.sandbox?.notEnforced).toEqual([
        'refusing signals to processes outside the sandbox (Landlock ABI 6, Linux 6.12)',
      ]);
      expect(await attempt(p, 'connect', { n: port.port })).toBe('refused ENETUNREACH connect');
      expect(await attempt(p, 'read', { path: arena.secret })).toBe(`refused EACCES ${arena.secret}`);
    } finally {
      await p.close();
    }
  }, 60_000);
});

describe('a system without seccomp or a pids cgroup', () => {
  it('refuses a sandbox when seccomp is missing', async () => {
    simulateMissing('seccomp');
    const error = await refusal(loadPlugin(HOSTILE.plain(), { ...quiet, sandbox: {} }));
    expect(error.message).toContain('missing: the system-call filter: exec, new processes, ptrace');
  });

  it('without a pids cgroup, root cannot count tasks: `processes` is refused, or with `required: false` processes are refused instead', async () => {
    simulateMissing('pids-cgroup');
    const error = await refusal(loadPlugin(HOSTILE.plain(), { ...quiet, sandbox: { processes: 2 } }));
    expect(error.message).toContain(
      'processes: 2 (no pids cgroup can be made here; RLIMIT_NPROC does not apply to root)',
    );
    const p = await loadPlugin(HOSTILE.plain(), { ...quiet, sandbox: { processes: 2, required: false } });
    try {
      expect(await attempt(p, 'forkbomb', { n: 5 })).toBe('made 0 EPERM');
      expect(await attempt(p, 'threads', { n: 5 })).toBe('made 5 -');
    } finally {
      await p.close();
    }
  }, 60_000);
});

describe('pids cgroups a killed server left behind', () => {
  it('are removed, with what still ran in them, and a group whose host runs is left alone', async () => {
    const dir = (await sandboxSupport()).pidsCgroup as string;
    const left = spawn('sleep', ['600'], { stdio: 'ignore' });
    const pid = left.pid as number;
    const stale = join(dir, `entropic-host-${pid}`);
    mkdirSync(stale);
    writeFileSync(join(stale, 'cgroup.procs'), String(pid));
    const p = await loadPlugin(HOSTILE.plain(), { ...quiet, sandbox: { processes: 1 } });
    try {
      await sweepHostCgroups(dir);
      expect(alive(pid)).toBe(false);
      expect(existsSync(stale)).toBe(false);
      expect(await attempt(p, 'forkbomb', { n: 5 })).toBe('made 1 EAGAIN'); // its own group is still there
    } finally {
      await p.close();
      left.kill('SIGKILL');
    }
  }, 60_000);
});

describe('a host that does not run as root (the user nobody)', () => {
  let mine: Arena;
  beforeAll(() => {
    mine = makeArena(NOBODY);
  });
  afterAll(() => mine?.remove());

  it('counts tasks with RLIMIT_NPROC in a user namespace, and keeps the file rules', async () => {
    const p = await loadPlugin(HOSTILE.plain(), {
      ...quiet,
      hostPath: NOBODY_HOST,
      sandbox: { processes: 2, read: [mine.data], write: [mine.out] },
    });
    try {
      expect(p.sandbox?.enforced).toContain(
        "2 thread(s) or process(es) beyond the host's own (RLIMIT_NPROC, user namespace)",
      );
      expect(await attempt(p, 'forkbomb', { n: 10 })).toBe('made 2 EAGAIN');
      expect(await attempt(p, 'threads', { n: 10 })).toBe('made 2 EAGAIN');
      expect(await attempt(p, 'read', { path: mine.file })).toBe('ok the public text');
      expect(await attempt(p, 'read', { path: mine.secret })).toBe(`refused EACCES ${mine.secret}`);
      expect(await attempt(p, 'write', { path: `${mine.out}/n.txt` })).toBe(`ok ${mine.out}/n.txt`);
    } finally {
      await p.close();
    }
  }, 60_000);

  it('kills the processes its plugin left running, found by its user namespace, once its host has ended', async () => {
    const p = await loadPlugin(HOSTILE.context(), {
      ...quiet,
      hostPath: NOBODY_HOST,
      sandbox: { processes: 2 },
    });
    let pids: number[] = [];
    try {
      pids = (await attempt(p, 'orphans', { n: 2 })).split(' ').slice(1).map(Number);
      expect(pids.filter(alive)).toHaveLength(2);
    } finally {
      await p.close();
    }
    await expect.poll(() => pids.filter(alive), { timeout: 30_000 }).toEqual([]);
  }, 60_000);

  it('refuses to load the plugin when a part cannot be applied in the host: a path it cannot reach', async () => {
    const closed = join(mine.root, 'closed');
    mkdirSync(closed, { mode: 0o700 }); // root's, and nobody may not look inside
    writeFileSync(join(closed, 'x'), 'x');
    const error = await refusal(
      loadPlugin(HOSTILE.plain(), {
        ...quiet,
        hostPath: NOBODY_HOST,
        sandbox: { read: [join(closed, 'x')] },
      }),
    );
    expect(error.code).toBe('ENTROPIC_ERROR_PLUGIN_LOAD_FAILED');
    expect(error.message).toContain(
      `the sandbox could not be applied, so the plugin was not loaded: sandbox path ${join(closed, 'x')} cannot be opened: Permission denied`,
    );
  }, 60_000);

  it('without Landlock TCP rules, makes its network namespace through a user namespace', async () => {
    simulateMissing('landlock-net');
    const sandbox = { required: false };
    const p = await loadPlugin(HOSTILE.plain(), { ...quiet, hostPath: NOBODY_HOST, sandbox });
    try {
      expect(await attempt(p, 'connect', { n: port.port })).toBe('refused ENETUNREACH connect');
    } finally {
      await p.close();
    }
  }, 60_000);
});

describe('the filter written by libseccomp', () => {
  it('refuses the same calls as the built-in writer, and allows the rest', async () => {
    const p = await loadPlugin(HOSTILE.context(), {
      ...quiet,
      hostPath: LIBSECCOMP_HOST,
      sandbox: { connect: [port.port] },
    });
    try {
      expect(p.sandbox?.enforced).toContain('system-call filter (seccomp, libseccomp 2.5.4)');
      for (const [what, outcome] of [
        ['exec', 'refused EPERM execve'],
        ['system', 'system 127'],
        ['forkbomb', 'made 0 EPERM'],
        ['ptrace', 'refused EPERM ptrace'],
        ['mount', 'refused EPERM mount'],
        ['unshare', 'refused EPERM unshare'],
        ['udp', 'refused EPERM udp'],
        ['unix', 'refused EPERM unix'],
        ['threads', 'made 4 -'],
        ['connect', 'ok connect'],
      ] as const) {
        expect(await attempt(p, what, { n: what === 'connect' ? port.port : 4 })).toBe(outcome);
      }
      expect(await attempt(p, 'lift', { path: arena.secret })).toMatch(
        /^cpu:EPERM files:EPERM memory:EPERM /,
      );
    } finally {
      await p.close();
    }
  }, 60_000);
});

describe('audit mode', () => {
  it('logs what it would refuse to the host stderr and lets it happen, with one warning', async () => {
    const stderr = stderrSink();
    let p: Plugin | undefined;
    const warnings = await warningsDuring(async () => {
      p = await loadPlugin(HOSTILE.plain(), {
        onStderr: stderr.onStderr,
        sandbox: { audit: true, openFiles: 4 },
      });
    });
    try {
      expect(warnings.map((w) => w.code)).toEqual(['ENTROPIC_SANDBOX_AUDIT']);
      expect(warnings[0]?.message).toContain('file and network rules (Landlock has no log-only mode)');
      const plugin = p as Plugin;
      expect(await attempt(plugin, 'udp')).toBe('ok udp');
      expect(await attempt(plugin, 'forkbomb', { n: 2 })).toBe('made 2 -');
      expect(await attempt(plugin, 'read', { path: arena.secret })).toBe('ok the secret');
      expect(await attempt(plugin, 'files', { n: 100 })).toBe('opened 4 EMFILE'); // limits stay
      expect(stderr.text()).toMatch(
        /sandbox audit: socket\(0x2, 0x[0-9a-f]+, 0x0\) by process \d+ would be refused/,
      );
      expect(stderr.text()).toMatch(/sandbox audit: clone\(0x[0-9a-f]+, /);
    } finally {
      await p?.close();
    }
  }, 60_000);
});

describe('a sandbox needs a host process', () => {
  it('is refused in-process, before anything loads', async () => {
    await expect(loadPlugin(HOSTILE.plain(), { isolation: 'none', sandbox: {} })).rejects.toThrow(
      "options.sandbox needs isolation 'process'",
    );
  });
});

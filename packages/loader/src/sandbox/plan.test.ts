// How a sandbox is enforced on kernels with more or fewer parts: the plan's host description, what it reports as
// enforced, and what is missing (which refuses a required sandbox).
import { describe, expect, it } from 'vitest';
import type { SandboxSupport } from '../base/types.js';
import { checkSandboxOptions } from './options.js';
import { planSandbox, sandboxExitCause, summarizeSandbox } from './plan.js';

const FULL: SandboxSupport = {
  landlock: 7,
  seccomp: 'built-in BPF',
  seccompAudit: true,
  pidsCgroup: '/sys/fs/cgroup/pids',
  nproc: false,
  netns: true,
  root: true,
};

const plan = (options: object, support: Partial<SandboxSupport> = {}) =>
  planSandbox(checkSandboxOptions(options), { ...FULL, ...support });

describe('planSandbox', () => {
  it('asks the host for every part on a kernel that has them all', () => {
    const p = plan({ read: ['/tmp'], connect: [5432], processes: 2, cpuSeconds: 9, openFiles: 3 });
    expect(p.missing).toEqual([]);
    expect(p.env.split('\n')).toEqual([
      'landlock 7',
      'net landlock',
      'scope 1',
      'seccomp enforce',
      'pids cgroup',
      'processes 2',
      'exec 0',
      'udp 0',
      'read /tmp',
      'connect 5432',
      'cpu 9',
      'files 3',
      '',
    ]);
    expect(p.cgroupDir).toBe('/sys/fs/cgroup/pids');
  });

  it('names each part an older kernel lacks', () => {
    expect(plan({}, { landlock: 2 }).missing).toEqual([
      'refusing to truncate readable files (Landlock ABI 3, Linux 6.2; this kernel has ABI 2)',
      'refusing signals to processes outside the sandbox (Landlock ABI 6, Linux 6.12)',
    ]);
    expect(plan({ connect: [80] }, { landlock: 3 }).missing).toEqual([
      'the TCP connect/bind rules (Landlock ABI 4, Linux 6.7)',
      'refusing signals to processes outside the sandbox (Landlock ABI 6, Linux 6.12)',
    ]);
    expect(plan({}, { landlock: 5 }).missing).toEqual([
      'refusing signals to processes outside the sandbox (Landlock ABI 6, Linux 6.12)',
    ]);
    expect(plan({}, { landlock: 0, netns: false }).missing).toEqual([
      'the read/write filesystem rules (Landlock, Linux 5.13; this kernel has none)',
      'network isolation (Landlock ABI 4, Linux 6.7, or a network namespace)',
      'refusing signals to processes outside the sandbox (Landlock ABI 6, Linux 6.12)',
    ]);
    expect(plan({}, { seccomp: null }).missing).toEqual([
      'the system-call filter: exec, new processes, ptrace, mount, namespaces, bpf and the like (seccomp)',
    ]);
  });

  it('counts tasks with RLIMIT_NPROC where there is no cgroup but a user namespace; else refuses processes', () => {
    const nproc = plan({ processes: 4 }, { pidsCgroup: null, nproc: true, root: false });
    expect(nproc.env).toContain('pids nproc\nprocesses 4\n');
    expect(nproc.cgroupDir).toBeUndefined();
    const none = plan({ processes: 4 }, { pidsCgroup: null, nproc: false, root: false });
    expect(none.env).not.toContain('processes');
    expect(none.missing).toEqual([
      'processes: 4 (no pids cgroup can be made here, no user namespace): new processes are refused instead and threads are not counted',
    ]);
  });

  it('in audit mode leaves Landlock off and logs system calls, keeping the limits', () => {
    const p = plan({ audit: true, read: ['/tmp'], openFiles: 2 });
    expect(p.env).not.toMatch(/landlock|net |scope/);
    expect(p.env).toContain('seccomp audit\n');
    expect(p.env).toContain('files 2\n');
    expect(p.report.notEnforced).toEqual([
      'file and network rules (Landlock has no log-only mode)',
      'system-call refusals (logged to the host stderr instead)',
    ]);
    expect(plan({ audit: true }, { seccompAudit: false }).missing).toEqual([
      'audit mode (seccomp user notifications, Linux 5.0)',
    ]);
  });

  it('summarizes the sandbox in one line, and names the sandbox as a cause of death', () => {
    expect(summarizeSandbox(checkSandboxOptions({ read: ['/tmp'], memoryMb: 64, exec: true }))).toBe(
      'read /tmp; write none; connect none; exec; no new processes; memory 64 MiB',
    );
    expect(sandboxExitCause('SIGXCPU')).toBe('its CPU time ran out: the sandbox cpuSeconds limit');
    expect(sandboxExitCause('SIGSEGV')).toBeUndefined();
  });
});

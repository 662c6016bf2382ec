/**
 * Decides how a plugin's sandbox is enforced on this system, from the options and what the host's probe found:
 * the description handed to the host (ENTROPIC_HOST_SANDBOX, format in native/host/sandbox.h), what is enforced
 * and by which kernel part, and what is missing. Fail closed: a missing part refuses the plugin unless the sandbox
 * says `required: false`, and then one warning names exactly what is not enforced. The wording of both lives here.
 */
import { describePlugin, HOST_ERROR_CODES, PluginError } from '../base/errors.js';
import type { SandboxReport, SandboxSupport } from '../base/types.js';
import type { Leftovers } from './leftovers.js';
import type { CheckedSandbox } from './options.js';

export interface SandboxPlan {
  /** The host's ENTROPIC_HOST_SANDBOX. */
  readonly env: string;
  readonly report: SandboxReport;
  /** The address-space limit to give the host (`memoryMb`). */
  readonly memoryMb: number | undefined;
  /** Where each host makes its pids cgroup, when one counts its tasks (removed after the host exits). */
  readonly cgroupDir: string | undefined;
  /** How what its plugin left running is found when a host ends (with a cgroup, or processes it may start). */
  readonly leftovers: Leftovers | undefined;
  /** What this system cannot enforce. */
  readonly missing: readonly string[];
}

function list(values: readonly (string | number)[]): string {
  return values.length === 0 ? 'none' : values.join(', ');
}

/** The sandbox as asked for, in one line. */
export function summarizeSandbox(s: CheckedSandbox): string {
  const parts = [
    `read ${list(s.read)}`,
    `write ${list(s.write)}`,
    `connect ${list(s.connect)}`,
    ...(s.bind.length > 0 ? [`bind ${list(s.bind)}`] : []),
    ...(s.udp ? ['udp'] : []),
    s.exec ? 'exec' : 'no exec',
    s.processes === undefined ? 'no new processes' : `processes ${s.processes}`,
    ...(s.memoryMb === undefined ? [] : [`memory ${s.memoryMb} MiB`]),
    ...(s.cpuSeconds === undefined ? [] : [`cpu ${s.cpuSeconds} s`]),
    ...(s.openFiles === undefined ? [] : [`open files ${s.openFiles}`]),
  ];
  return `${parts.join('; ')}${s.audit ? ' (audit mode)' : ''}`;
}

interface Decision {
  lines: string[];
  enforced: string[];
  missing: string[];
  off: string[];
}

/** Files, TCP ports and scopes: Landlock, or a network namespace for a sandbox with no ports. */
function landlock(s: CheckedSandbox, k: SandboxSupport, d: Decision): void {
  if (s.audit) {
    d.off.push('file and network rules (Landlock has no log-only mode)');
    return;
  }
  if (k.landlock >= 1) {
    d.lines.push(`landlock ${k.landlock}`);
    d.enforced.push(`filesystem rules (Landlock ABI ${k.landlock})`);
    if (k.landlock < 3)
      d.missing.push(
        `refusing to truncate readable files (Landlock ABI 3, Linux 6.2; this kernel has ABI ${k.landlock})`,
      );
  } else {
    d.missing.push('the read/write filesystem rules (Landlock, Linux 5.13; this kernel has none)');
  }
  const ports = s.connect.length + s.bind.length > 0;
  if (k.landlock >= 4) {
    d.lines.push('net landlock');
    d.enforced.push('TCP connect/bind rules (Landlock)');
  } else if (!ports && k.netns) {
    d.lines.push('net netns');
    d.enforced.push('no network (a network namespace of its own)');
  } else {
    d.missing.push(
      ports
        ? 'the TCP connect/bind rules (Landlock ABI 4, Linux 6.7)'
        : 'network isolation (Landlock ABI 4, Linux 6.7, or a network namespace)',
    );
  }
  if (k.landlock >= 6) {
    d.lines.push('scope 1');
    d.enforced.push('signals and abstract unix sockets kept inside the sandbox (Landlock ABI 6)');
  } else {
    d.missing.push('refusing signals to processes outside the sandbox (Landlock ABI 6, Linux 6.12)');
  }
}

function seccomp(s: CheckedSandbox, k: SandboxSupport, d: Decision): void {
  if (k.seccomp === null) {
    d.missing.push(
      'the system-call filter: exec, new processes, ptrace, mount, namespaces, bpf and the like (seccomp)',
    );
  } else if (!s.audit) {
    d.lines.push('seccomp enforce');
    d.enforced.push(`system-call filter (seccomp, ${k.seccomp})`);
  } else if (k.seccompAudit) {
    d.lines.push('seccomp audit');
    d.off.push('system-call refusals (logged to the host stderr instead)');
  } else {
    d.missing.push('audit mode (seccomp user notifications, Linux 5.0)');
  }
}

/** Counting threads and processes: a pids cgroup, else RLIMIT_NPROC in a user namespace (not for root). */
function tasks(s: CheckedSandbox, k: SandboxSupport, d: Decision): string | undefined {
  if (s.processes === undefined) return undefined;
  if (k.pidsCgroup !== null) {
    d.lines.push('pids cgroup', `processes ${s.processes}`);
    d.enforced.push(`${s.processes} thread(s) or process(es) beyond the host's own (pids cgroup)`);
    return k.pidsCgroup;
  }
  if (k.nproc) {
    d.lines.push('pids nproc', `processes ${s.processes}`);
    d.enforced.push(
      `${s.processes} thread(s) or process(es) beyond the host's own (RLIMIT_NPROC, user namespace)`,
    );
    return undefined;
  }
  d.missing.push(
    `processes: ${s.processes} (no pids cgroup can be made here${k.root ? '; RLIMIT_NPROC does not apply to root' : ', no user namespace'}): new processes are refused instead and threads are not counted`,
  );
  return undefined;
}

export function planSandbox(s: CheckedSandbox, support: SandboxSupport): SandboxPlan {
  const d: Decision = { lines: [], enforced: [], missing: [], off: [] };
  landlock(s, support, d);
  seccomp(s, support, d);
  const cgroupDir = tasks(s, support, d);
  d.lines.push(`exec ${s.exec ? 1 : 0}`, `udp ${s.udp ? 1 : 0}`);
  for (const path of s.read) d.lines.push(`read ${path}`);
  for (const path of s.write) d.lines.push(`write ${path}`);
  for (const port of s.connect) d.lines.push(`connect ${port}`);
  for (const port of s.bind) d.lines.push(`bind ${port}`);
  if (s.cpuSeconds !== undefined) d.lines.push(`cpu ${s.cpuSeconds}`);
  if (s.openFiles !== undefined) d.lines.push(`files ${s.openFiles}`);
  const limits = [
    ...(s.memoryMb === undefined ? [] : [`memory ${s.memoryMb} MiB (RLIMIT_AS)`]),
    ...(s.cpuSeconds === undefined ? [] : [`cpu ${s.cpuSeconds} s (RLIMIT_CPU)`]),
    ...(s.openFiles === undefined ? [] : [`${s.openFiles} open files (RLIMIT_NOFILE)`]),
  ];
  if (limits.length > 0) d.enforced.push(`limits: ${limits.join(', ')}`);
  d.enforced.push('no_new_privs and no capabilities');
  return {
    env: `${d.lines.join('\n')}\n`,
    report: {
      summary: summarizeSandbox(s),
      enforced: d.enforced,
      notEnforced: [...d.missing, ...d.off],
      audit: s.audit,
    },
    memoryMb: s.memoryMb,
    cgroupDir,
    leftovers:
      cgroupDir !== undefined
        ? { cgroupDir }
        : d.lines.includes('pids nproc') && (s.processes ?? 0) > 0
          ? { userNamespace: true }
          : undefined,
    missing: d.missing,
  };
}

/** The refusal of a sandbox this system cannot enforce (with `required`, the default). */
export function sandboxRefusal(path: string, missing: readonly string[]): PluginError {
  return new PluginError(
    HOST_ERROR_CODES.sandbox,
    `${describePlugin(path)}: its sandbox cannot be enforced on this system, so it was not loaded; missing: ${missing.join('; ')}. ` +
      'Run it where the kernel has them, or set the sandbox\'s "required" to false to run it with the rest enforced',
    { path },
  );
}

/** The one start-up warning of a sandbox that is not fully enforced (`required: false`, or audit mode). */
export function sandboxWarning(path: string, report: SandboxReport): string {
  const what = report.audit
    ? 'runs its sandbox in audit mode: refusals are logged, not enforced'
    : 'runs with a partial sandbox (required: false)';
  return `${describePlugin(path)} ${what}; not enforced: ${report.notEnforced.join('; ')}`;
}

/** Why a host that died by `signal` died, when the sandbox is the likely cause. */
export function sandboxExitCause(signal: string | null): string | undefined {
  if (signal === 'SIGXCPU') return 'its CPU time ran out: the sandbox cpuSeconds limit';
  if (signal === 'SIGSYS') return 'a system call of another architecture, which the sandbox kills for';
  return undefined;
}

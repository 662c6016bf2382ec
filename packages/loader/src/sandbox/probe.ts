/**
 * What the OS sandbox can use here, asked of the plugin host itself (`entropic_plugin_host --sandbox-probe`): the
 * host is what applies the sandbox, so it is the one place that tells what the kernel and its build support. Asked
 * once per host executable (and per ENTROPIC_SANDBOX_SIMULATE_MISSING, the test aid that makes the host report a
 * part missing), and kept for the life of this process.
 */
import { execFile } from 'node:child_process';
import { findHost } from '../addon/find-host.js';
import { HOST_ERROR_CODES, PluginError } from '../base/errors.js';
import type { SandboxSupport } from '../base/types.js';

const asked = new Map<string, Promise<SandboxSupport>>();

function parse(text: string, hostPath: string): SandboxSupport {
  let value: Partial<SandboxSupport> | undefined;
  try {
    value = JSON.parse(text) as Partial<SandboxSupport>;
  } catch {
    value = undefined;
  }
  if (typeof value?.landlock !== 'number' || typeof value.root !== 'boolean') {
    throw new PluginError(
      HOST_ERROR_CODES.unavailable,
      `the plugin host ${hostPath} does not answer --sandbox-probe (built before the sandbox?); rebuild it`,
    );
  }
  return {
    landlock: value.landlock,
    seccomp: typeof value.seccomp === 'string' ? value.seccomp : null,
    seccompAudit: value.seccompAudit === true,
    pidsCgroup: typeof value.pidsCgroup === 'string' ? value.pidsCgroup : null,
    nproc: value.nproc === true,
    netns: value.netns === true,
    root: value.root,
  };
}

function ask(hostPath: string): Promise<SandboxSupport> {
  return new Promise((resolve, reject) => {
    execFile(hostPath, ['--sandbox-probe'], { timeout: 30_000, encoding: 'utf8' }, (error, stdout) => {
      if (error !== null && stdout === '') {
        reject(
          new PluginError(
            HOST_ERROR_CODES.unavailable,
            `the plugin host ${hostPath} could not be asked what the sandbox can use: ${error.message}`,
            { cause: error },
          ),
        );
        return;
      }
      try {
        resolve(parse(stdout, hostPath));
      } catch (failure) {
        reject(failure);
      }
    });
  });
}

/** What the host at `hostPath` can enforce on this system. */
export function probeHost(hostPath: string): Promise<SandboxSupport> {
  const key = `${hostPath}\0${process.env.ENTROPIC_SANDBOX_SIMULATE_MISSING ?? ''}`;
  let answer = asked.get(key);
  if (answer === undefined) {
    answer = ask(hostPath);
    asked.set(key, answer);
    answer.catch(() => asked.delete(key));
  }
  return answer;
}

/**
 * What the OS sandbox of isolated plugins can enforce on this system: the Landlock ABI, how seccomp filters are
 * written, whether a pids cgroup or a user namespace can count a plugin's tasks, whether a network namespace can
 * be made. `hostPath` picks the host executable as `LoadOptions.hostPath` does.
 */
export function sandboxSupport(hostPath?: string): Promise<SandboxSupport> {
  return probeHost(findHost(hostPath, '(sandbox probe)'));
}

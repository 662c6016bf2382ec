/**
 * Readies the sandbox of one `loadPlugin` call, once for all its instances: asks the host what this system can
 * enforce, decides the plan, refuses the plugin when a required part is missing, and says once what is not
 * enforced (`process.emitWarning`, code ENTROPIC_SANDBOX_PARTIAL or ENTROPIC_SANDBOX_AUDIT).
 */

import { findHost } from '../addon/find-host.js';
import { sweepHostCgroups } from '../sandbox/cgroup.js';
import { planSandbox, type SandboxPlan, sandboxRefusal, sandboxWarning } from '../sandbox/plan.js';
import { probeHost } from '../sandbox/probe.js';
import type { ResolvedLoadOptions } from './checks.js';

const swept = new Set<string>();

/** Once per folder and process: groups a killed server left behind (sandbox/cgroup.ts). */
function sweepOnce(dir: string): void {
  if (swept.has(dir)) return;
  swept.add(dir);
  void sweepHostCgroups(dir);
}

export async function prepareSandbox(
  path: string,
  options: ResolvedLoadOptions,
): Promise<SandboxPlan | undefined> {
  const sandbox = options.sandbox;
  if (sandbox === undefined) return undefined;
  const support = await probeHost(findHost(options.hostPath, path));
  const plan = planSandbox(sandbox, support);
  if (plan.cgroupDir !== undefined) sweepOnce(plan.cgroupDir);
  if (plan.missing.length > 0 && sandbox.required) throw sandboxRefusal(path, plan.missing);
  if (plan.report.notEnforced.length > 0) {
    process.emitWarning(sandboxWarning(path, plan.report), {
      code: sandbox.audit ? 'ENTROPIC_SANDBOX_AUDIT' : 'ENTROPIC_SANDBOX_PARTIAL',
    });
  }
  return plan;
}

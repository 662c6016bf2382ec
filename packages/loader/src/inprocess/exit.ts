/**
 * Destroys the open in-process instances when the process exits. A normal exit runs the addon's environment
 * cleanup hook for each instance, but `process.exit()` skips those hooks, so the instances are also shut down
 * from the 'exit' event: queued calls are dropped, a call still inside a plugin gets a short grace period, then
 * each instance is destroyed and its library unloaded.
 */
import type { NativePlugin } from '../addon/binding.js';

const open = new Set<NativePlugin>();
let listening = false;

function shutDownAll(): void {
  for (const native of open) native.shutdown();
  open.clear();
}

export function track(native: NativePlugin): void {
  if (!listening) {
    process.once('exit', shutDownAll);
    listening = true;
  }
  open.add(native);
}

export function untrack(native: NativePlugin): void {
  open.delete(native);
}

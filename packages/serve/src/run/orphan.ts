/**
 * Ends `serve` when the process that started it is gone. A launcher that does not pass SIGTERM on (`npx`, a
 * shell script, `npm start`) dies and leaves its child behind, reparented, still holding its port; a changed
 * parent process id is how the child notices. Not armed when started by init (ppid 1), where that cannot be told.
 */

/** The parent process id as this process started (read before start-up, which a launcher may not outlive). */
export const STARTING_PARENT = process.ppid;

/**
 * Polls the parent process id every `intervalMs`; calls `gone` once when it is no longer `parent` (at once if it
 * already is not). Returns the stop.
 */
export function whenParentGone(gone: () => void, parent = STARTING_PARENT, intervalMs = 500): () => void {
  if (parent <= 1) return () => {};
  if (process.ppid !== parent) {
    queueMicrotask(gone);
    return () => {};
  }
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    gone();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

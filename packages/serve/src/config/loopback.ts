// Which listen addresses only this machine can reach: the banner's exposure warning and the metrics listener ask.
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** Whether a listener bound to `host` is reachable from this machine only. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

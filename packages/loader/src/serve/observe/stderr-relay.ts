/**
 * The relay of in-process plugins' stderr (`serve --log-format json`, started by `plugin-stderr.ts`): a process of
 * its own whose stdin is the pipe serve pointed fd 2 at and whose stdout is serve's real stderr. Each line becomes
 * a JSON log line through serve's own log (`pluginOutput`, the same as an isolated host's stderr), with the
 * secrets serve sends over IPC masked. Being a separate process, it still writes what a plugin said just before it
 * took serve down (an abort, a crash report); it ends when every writer of the pipe is gone.
 *
 * argv[2]: what the `plugin` field says (the plugin's file, or the files of every in-process plugin).
 */
import { createServeLog } from './log.js';

const label = process.argv[2] ?? 'in-process';
const log = createServeLog('json', (line) => process.stdout.write(line));
/** Lines longer than this are written in parts rather than held. */
const MAX_LINE = 64 * 1024;

// A Ctrl-C or a SIGTERM to the process group is for serve: the relay goes on until serve's last line is out.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
process.stdout.on('error', () => process.exit(0));
process.on('message', (message: { secret?: unknown; sync?: unknown }) => {
  if (typeof message.secret === 'string') log.secret(message.secret);
  if (message.sync === true) process.send?.({ synced: true });
});

let rest = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  const text = rest + chunk;
  const end = text.lastIndexOf('\n');
  if (end < 0 && text.length < MAX_LINE) {
    rest = text;
    return;
  }
  const upTo = end < 0 ? text.length : end + 1;
  rest = text.slice(upTo);
  log.pluginOutput(label, text.slice(0, upTo));
});
process.stdin.on('end', () => {
  if (rest !== '') log.pluginOutput(label, rest);
  process.exit(0);
});

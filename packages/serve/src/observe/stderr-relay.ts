/**
 * The relay of in-process plugins' stderr (started by `plugin-stderr.ts`): a process of its own whose stdin is the
 * pipe serve pointed fd 2 at and whose stdout is serve's real stderr. Each line becomes a line of serve's log
 * (`pluginOutput`, the same as an isolated host's stderr: JSON, or tagged text), masked through
 * a stream of its masker (the secrets serve sends over IPC, and every shape of credential). Being a separate
 * process, it still writes what a plugin said just before it took serve down (an abort, a crash report); it ends
 * when every writer of the pipe is gone.
 *
 * argv[2]: what the `plugin` field says (the plugin's file, or the files of every in-process plugin); argv[3]: the
 * log format, `json` (the default) or `text`.
 */
import { createServeLog } from './log.js';

const label = process.argv[2] ?? 'in-process';
const log = createServeLog(process.argv[3] === 'text' ? 'text' : 'json', (line) =>
  process.stdout.write(line),
);
/** Whole lines, masked; a credential split between two writes is held until it is whole (a bounded tail). */
const masked = log.masker.stream();

// A Ctrl-C or a SIGTERM to the process group is for serve: the relay goes on until serve's last line is out.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
process.stdout.on('error', () => process.exit(0));
process.on('message', (message: { secret?: unknown; sync?: unknown }) => {
  if (typeof message.secret === 'string') log.secret(message.secret);
  if (message.sync === true) process.send?.({ synced: true });
});

process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => log.pluginOutput(label, masked.write(chunk)));
process.stdin.on('end', () => {
  log.pluginOutput(label, masked.end());
  process.exit(0);
});

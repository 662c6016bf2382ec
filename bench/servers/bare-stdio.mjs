// The ceiling for stdio: newline-delimited JSON in, parse, answer, write once per input chunk.
// No protocol library, no validation; it only knows the few methods the load generator sends.
import { answer } from './bare-answer.mjs';

let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  let out = '';
  let start = 0;
  let nl = pending.indexOf('\n', start);
  while (nl !== -1) {
    const line = pending.slice(start, nl);
    start = nl + 1;
    if (line.length > 0) {
      const reply = answer(JSON.parse(line));
      if (reply !== undefined) out += `${JSON.stringify(reply)}\n`;
    }
    nl = pending.indexOf('\n', start);
  }
  pending = pending.slice(start);
  if (out.length > 0) process.stdout.write(out);
});
process.stdin.on('end', () => process.exit(0));

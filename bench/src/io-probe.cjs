// Preloaded into a server by io-counts.mjs (`node --require`): counts, per file descriptor, the chunks its
// streams read (with the newline-ended lines in those that are text) and the writes its sockets made (with the writes that end
// in the plugin wire's lone-call hint). SIGUSR2 starts the count afresh; the counts go to IO_PROBE_OUT at exit.
const { writeFileSync } = require('node:fs');
const { Socket } = require('node:net');
const { Readable } = require('node:stream');

const SPIN_HINT = 'S0\0';
let counts = {};
const bump = (key, n = 1) => {
  counts[key] = (counts[key] ?? 0) + n;
};
/** Newlines in a chunk (a newline byte never occurs inside a multi-byte UTF-8 character). */
const lines = (chunk) => {
  let n = 0;
  for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) n++;
  return n;
};

const push = Readable.prototype.push;
Readable.prototype.push = function (chunk, encoding) {
  if (chunk) {
    const fd = this._handle?.fd ?? '?';
    bump(`read ${fd}`);
    // Text streams (a stdio transport's input, read with an encoding) are counted in lines; a plugin host's
    // answer frames are bytes.
    if (this.readableEncoding && typeof chunk !== 'string') {
      const n = lines(chunk);
      bump(`read ${fd} lines`, n);
      if (n === 1) bump(`read ${fd} one line`);
    }
  }
  return push.call(this, chunk, encoding);
};
const write = Socket.prototype._write;
Socket.prototype._write = function (data, encoding, callback) {
  const fd = this._handle?.fd ?? '?';
  bump(`write ${fd}`);
  if (typeof data === 'string' && data.endsWith(SPIN_HINT)) bump(`write ${fd} lone`);
  return write.call(this, data, encoding, callback);
};
const writev = Socket.prototype._writev;
Socket.prototype._writev = function (chunks, callback) {
  const fd = this._handle?.fd ?? '?';
  bump(`write ${fd}`);
  const last = chunks.at(-1)?.chunk;
  if (typeof last === 'string' && last.endsWith(SPIN_HINT)) bump(`write ${fd} lone`);
  return writev.call(this, chunks, callback);
};
process.on('SIGUSR2', () => {
  counts = {};
});
process.on('exit', () => {
  if (process.env.IO_PROBE_OUT) writeFileSync(process.env.IO_PROBE_OUT, JSON.stringify(counts));
});

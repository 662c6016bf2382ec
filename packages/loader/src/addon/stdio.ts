/**
 * Serving with in-process plugins: before any is loaded, fd 1 is pointed at stderr and fd 0 at /dev/null (the
 * addon's `protectStdio`), so a plugin's printf or write(1, ...) lands on stderr and its reads of stdin see
 * end-of-file. Over stdio the MCP stream first moves to private copies of fds 0 and 1; over HTTP, which uses
 * neither, the copies are closed. Node's own `process.stdout` writes to stderr from then on.
 */
import { closeSync, createReadStream, fstatSync, writeSync } from 'node:fs';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { Writable } from 'node:stream';
import { isatty, ReadStream, WriteStream } from 'node:tty';
import { HOST_ERROR_CODES, PluginError } from '../base/errors.js';
import { loadAddon } from './binding.js';

export interface PrivateStdio {
  readonly input: Readable;
  readonly output: Writable;
}

function isStream(fd: number): boolean {
  const stat = fstatSync(fd);
  return stat.isFIFO() || stat.isSocket();
}

/** Reads fd the way Node reads its own stdin: a TTY, a pipe or socket, else a file. */
function inputOn(fd: number): Readable {
  if (isatty(fd)) return new ReadStream(fd);
  if (isStream(fd)) return new Socket({ fd, readable: true, writable: false });
  return createReadStream('', { fd });
}

/** Writes fd the way Node writes its own stdout: a TTY, a pipe or socket, else synchronously (files). */
function outputOn(fd: number): Writable {
  if (isatty(fd)) return new WriteStream(fd);
  if (isStream(fd)) return new Socket({ fd, readable: false, writable: true });
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      try {
        let offset = 0;
        while (offset < chunk.length) offset += writeSync(fd, chunk, offset);
        done();
      } catch (error) {
        done(error as Error);
      }
    },
  });
}

/**
 * Moves the stdio protocol to private descriptors and returns streams on them, for `serveStdio`.
 * Call once, before the first in-process plugin loads. Returns undefined when the addon cannot be loaded:
 * then no plugin can load in-process either, and its load reports why.
 */
export function protectStdio(pluginPath: string): PrivateStdio | undefined {
  const fds = moveStdio(pluginPath);
  return fds === undefined ? undefined : { input: inputOn(fds.input), output: outputOn(fds.output) };
}

/** The same moves when serving anything but stdio: nothing of fds 0 and 1 is kept. */
export function setStdioAside(pluginPath: string): void {
  const fds = moveStdio(pluginPath);
  if (fds === undefined) return;
  closeSync(fds.input);
  closeSync(fds.output);
}

/** The private copies of fds 0 and 1 once moved, or undefined without the addon. */
function moveStdio(pluginPath: string): { readonly input: number; readonly output: number } | undefined {
  try {
    return loadAddon(pluginPath).protectStdio();
  } catch (error) {
    if (error instanceof PluginError && error.code === HOST_ERROR_CODES.unavailable) return undefined;
    throw error;
  }
}

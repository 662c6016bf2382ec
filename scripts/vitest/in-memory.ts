// Setup file of the unit lane: a unit test runs in memory, so starting a process, opening or dialling a socket, or
// loading native code fails it at once, naming what it tried and where such a test belongs instead.
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

function refuse(what: string): never {
  throw new Error(
    `${what} in a unit test: the unit lane runs in memory only. A test that needs a child process, a socket, ` +
      "a compiled plugin or a server belongs in its package's integration lane (test/, see vitest.config.ts)",
  );
}

const processCalls = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;
for (const name of processCalls) {
  Object.assign(childProcess, { [name]: () => refuse(`child_process.${name}`) });
}
net.Server.prototype.listen = () => refuse('listening on a socket');
net.Socket.prototype.connect = () => refuse('connecting a socket');
process.dlopen = () => refuse('loading native code (process.dlopen)');
// `import { spawn } from 'node:child_process'` reads the patched functions too.
syncBuiltinESMExports();

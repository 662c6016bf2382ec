// Start an HTTP target as a child process and learn its port from the first JSON line it prints.
import { spawn } from 'node:child_process';
import { memoryOf } from './proc.mjs';

/** `slow`: minutes to start and to stop (a server under valgrind), instead of 30 s and 5 s. */
export function startHttpServer(target, mode, slow = false) {
  const child = spawn(target.command, [...target.args, ...target.modeArgs(mode)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...target.env },
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text) => {
    stderr = (stderr + text).slice(-4000);
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return new Promise((resolve, reject) => {
    let out = '';
    const startMs = slow ? 600_000 : 30_000;
    const timer = setTimeout(() => fail(new Error(`no port announced in ${startMs / 1000} s`)), startMs);
    const fail = (error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${target.name} (${mode}): ${error.message} ${stderr}`));
    };
    exited.then((code) => fail(new Error(`exited with ${code}`)));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text) => {
      out += text;
      const nl = out.indexOf('\n');
      if (nl === -1) return;
      clearTimeout(timer);
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      const { port } = JSON.parse(out.slice(0, nl));
      resolve({
        url: `http://127.0.0.1:${port}${target.path ?? '/mcp'}`,
        pid: child.pid,
        memory: (field) => memoryOf(child.pid, field),
        stderr: () => stderr,
        close: async () => {
          child.kill('SIGTERM');
          const timer2 = setTimeout(() => child.kill('SIGKILL'), slow ? 300_000 : 5000);
          await exited;
          clearTimeout(timer2);
        },
      });
    });
  });
}

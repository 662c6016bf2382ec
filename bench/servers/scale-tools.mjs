// Tools for the scale workloads (`serve --tools-module`): an echo, and a tool that keeps the CPU busy for 1 ms
// per call. The spin counts the process's CPU time, not wall time, so a call preempted by other work on the
// machine still costs 1 ms of CPU (a wall-clock spin would cost less and flatter a crowded machine).
import { cpuUsage } from 'node:process';

const SPIN_US = 1000;

export function register(server) {
  server.addTool({ name: 'scale.echo' }, (args) => ({
    content: [{ type: 'text', text: String(args.text ?? 'hello') }],
  }));
  server.addTool({ name: 'scale.spin' }, () => {
    const start = cpuUsage();
    let n = 0;
    for (;;) {
      for (let i = 0; i < 200; i++) n++;
      const used = cpuUsage(start);
      if (used.user + used.system >= SPIN_US) break;
    }
    return { content: [{ type: 'text', text: String(n > 0) }] };
  });
}

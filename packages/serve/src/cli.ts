#!/usr/bin/env node
/**
 * `entropic-mcp <command> ...`: each command is a module `./cli/<command>.js` exporting
 * `run(argv: string[]): Promise<number>` (the exit status), imported only when it is asked for.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Command {
  run(argv: string[]): Promise<number>;
}

const NAME = /^[a-z][a-z0-9-]*$/;

function commands(): string[] {
  const dir = join(dirname(fileURLToPath(import.meta.url)), 'cli');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.js') && !f.includes('.test.') && !f.startsWith('_'))
    .map((f) => f.slice(0, -3))
    .filter((name) => NAME.test(name))
    .sort();
}

function usage(): string {
  return (
    `usage: entropic-mcp <command> [options]\n       entropic-mcp --version\ncommands: ${commands().join(', ')}\n` +
    'run `entropic-mcp <command> --help` for the options of one command\n'
  );
}

function version(): string {
  const manifest = join(dirname(fileURLToPath(import.meta.url)), '..', 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  if (!NAME.test(name) || !commands().includes(name)) {
    process.stderr.write(
      `entropic-mcp: unknown command "${name}" (commands: ${commands().join(', ')})\n` +
        'run `entropic-mcp --help` for more\n',
    );
    return 2;
  }
  const command = (await import(`./cli/${name}.js`)) as Command;
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`entropic-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);

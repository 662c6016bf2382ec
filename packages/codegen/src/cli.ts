#!/usr/bin/env node
// entropic-abi: the code generator's command line; each command is a module in ./commands/, loaded when asked for.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CommandModule, EXIT_FAILURE, EXIT_USAGE, UsageError } from './command.js';

const commandsDir = join(dirname(fileURLToPath(import.meta.url)), 'commands');
const NAME = /^[a-z][a-z0-9-]*$/;

function commandNames(): string[] {
  if (!existsSync(commandsDir)) return [];
  return readdirSync(commandsDir)
    .filter((f) => f.endsWith('.js') && !f.endsWith('.test.js'))
    .map((f) => f.slice(0, -3))
    .filter((n) => NAME.test(n))
    .sort();
}

async function load(name: string): Promise<CommandModule | undefined> {
  if (!NAME.test(name) || !commandNames().includes(name)) return undefined;
  return (await import(`./commands/${name}.js`)) as CommandModule;
}

function packageVersion(): string {
  const manifest = join(dirname(fileURLToPath(import.meta.url)), '..', 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

async function help(): Promise<string> {
  const lines = ['usage: entropic-abi <command> [options]', '       entropic-abi --version', '', 'commands:'];
  for (const name of commandNames()) {
    const mod = await load(name);
    lines.push(`  ${name.padEnd(16)}${mod?.summary ?? ''}`);
  }
  lines.push(
    '',
    'Run `entropic-abi <command> --help` for its options. Exit codes: 0 ok, 1 failure, 2 usage error.',
  );
  return lines.join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined) {
    console.error(await help());
    return EXIT_USAGE;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    console.log(await help());
    return 0;
  }
  if (name === '--version' || name === '-v') {
    console.log(packageVersion());
    return 0;
  }
  const command = await load(name);
  if (!command) {
    console.error(
      `entropic-abi: unknown command '${name}' (known: ${commandNames().join(', ')})\n` +
        'run `entropic-abi --help` for the commands',
    );
    return EXIT_USAGE;
  }
  if (args.includes('--help') || args.includes('-h')) {
    const details = command.help === undefined ? '' : `\n\n${command.help}`;
    console.log(`usage: ${command.usage}\n\n${command.summary}${details}`);
    return 0;
  }
  try {
    return await command.run(args);
  } catch (error) {
    if (error instanceof UsageError) {
      // One line saying what was wrong, then where the options are explained.
      console.error(
        `entropic-abi ${name}: ${error.message}\nrun \`entropic-abi ${name} --help\` for its options`,
      );
      return EXIT_USAGE;
    }
    console.error(`entropic-abi ${name}: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_FAILURE;
  }
}

process.exitCode = await main(process.argv.slice(2));

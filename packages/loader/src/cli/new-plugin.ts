// `entropic-mcp new-plugin NAME [--dir DIR]`: scaffolds a C plugin that builds and serves as generated.
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { usageHint } from '../cli-shared.js';

const USAGE = `usage: entropic-mcp new-plugin NAME [--dir DIR]

  Creates DIR/NAME (DIR defaults to the current directory) holding a C plugin named NAME:
  src/plugin.c, a Makefile that finds the plugin headers, and a README. Then:
    make -C NAME && entropic-mcp serve --plugin "$PWD/NAME/build/libNAME.so"`;

/** A plugin name is its tools' routing prefix (`NAME.tool`) and part of a file name. */
const NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** Where the scaffold's files live: `templates/c-plugin` at the package root (from `src/cli` or `dist/cli`). */
export const TEMPLATE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../templates/c-plugin');

/** The include folder of the installed `@entropic-mcp/abi-headers`, the Makefile's fallback. */
export function abiIncludeDir(): string {
  const pkg = createRequire(import.meta.url).resolve('@entropic-mcp/abi-headers/package.json');
  return join(realpathSync(dirname(pkg)), 'include');
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)));
}

/** Writes the scaffold for `name` into `target` (which must not exist or be empty); returns the files written. */
export async function scaffoldPlugin(name: string, target: string): Promise<string[]> {
  if (!NAME_PATTERN.test(name)) {
    throw new Error(
      `invalid plugin name "${name}": use a letter, then letters, digits, "_" or "-" (at most 64 characters)`,
    );
  }
  if (existsSync(target) && (await readdir(target)).length > 0) {
    throw new Error(`${target} already exists and is not empty; choose another NAME or --dir`);
  }
  const values: Record<string, string> = { name, includeDir: abiIncludeDir() };
  const written: string[] = [];
  for (const file of await listFiles(TEMPLATE_DIR)) {
    const text = await readFile(join(TEMPLATE_DIR, file), 'utf8');
    const out = file === 'gitignore' ? '.gitignore' : file;
    const filled = text.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => values[key] ?? whole);
    await mkdir(dirname(join(target, out)), { recursive: true });
    await writeFile(join(target, out), filled);
    written.push(out);
  }
  return written.sort();
}

export async function run(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (err) {
    process.stderr.write(`entropic-mcp new-plugin: ${(err as Error).message}\n${usageHint('new-plugin')}`);
    return 2;
  }
  if (parsed.values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const [name, ...extra] = parsed.positionals;
  if (name === undefined || extra.length > 0) {
    process.stderr.write(`entropic-mcp new-plugin: expected exactly one NAME\n${usageHint('new-plugin')}`);
    return 2;
  }
  const target = resolve(parsed.values.dir ?? '.', name);
  try {
    const files = await scaffoldPlugin(name, target);
    const shown = relative(process.cwd(), target) || '.';
    process.stdout.write(
      `created ${target}\n${files.map((f) => `  ${f}\n`).join('')}\nnext:\n` +
        `  make -C ${shown}\n` +
        `  entropic-mcp serve --plugin "${join(target, 'build', `lib${name}.so`)}"\n`,
    );
    return 0;
  } catch (err) {
    process.stderr.write(`entropic-mcp new-plugin: ${(err as Error).message}\n`);
    return 1;
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: { dir: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
}

// `entropic-mcp new-plugin NAME [--dir DIR] [--plain]`: scaffolds a C plugin that builds and serves as generated.
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommandArgs, report, UsageError } from '../cli-kit/shared.js';

const USAGE = `usage: entropic-mcp new-plugin NAME [--dir DIR] [--plain]

  Creates DIR/NAME (DIR defaults to the current directory) holding a C plugin named NAME:
  src/plugin.c, a Makefile that finds the plugin headers, and a README. Then:
    make -C NAME && entropic-mcp serve --plugin "$PWD/NAME/build/libNAME.so"

  By default the plugin uses the plugin context (<entropic/interfaces/i_mcp_context.h>): its tools report
  progress, log, notice cancellation and read the caller, and it still loads as a plain API-1 plugin
  where the loader has no context. --plain writes the nine entry points of API 1 alone.`;

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

/** Template files that come in two forms: `src/plugin.context.c` or `src/plugin.plain.c` becomes `src/plugin.c`. */
const VARIANT = /^(.*)\.(context|plain)(\.[^.]+)$/;

const CONTEXT_NOTE = {
  context:
    'Through the plugin context (`entropic_mcp_server_execute_with_context`, `<entropic/interfaces/i_mcp_context.h>`) ' +
    'a tool can report progress (`countdown`), log to the client (`hello`), stop early when the call is cancelled and ' +
    'read the caller (`context->subject`, `context->scopes`, `context->header(...)`). It still defines the plain ' +
    '`entropic_mcp_server_execute`, so a loader without the context loads it as a plain API-1 plugin.',
  plain:
    'This is the plain API-1 form. `entropic-mcp new-plugin NAME` without `--plain` writes the form with the plugin ' +
    'context (progress, logs, cancellation, the caller), which still loads wherever this one does.',
} as const;

/** Writes the scaffold for `name` into `target` (which must not exist or be empty); returns the files written. */
export async function scaffoldPlugin(
  name: string,
  target: string,
  form: 'context' | 'plain' = 'context',
): Promise<string[]> {
  if (!NAME_PATTERN.test(name)) {
    throw new Error(
      `invalid plugin name "${name}": use a letter, then letters, digits, "_" or "-" (at most 64 characters)`,
    );
  }
  if (existsSync(target) && (await readdir(target)).length > 0) {
    throw new Error(`${target} already exists and is not empty; choose another NAME or --dir`);
  }
  const values: Record<string, string> = {
    name,
    includeDir: abiIncludeDir(),
    contextNote: CONTEXT_NOTE[form],
  };
  const written: string[] = [];
  for (const file of await listFiles(TEMPLATE_DIR)) {
    const variant = VARIANT.exec(file);
    if (variant !== null && variant[2] !== form) continue;
    const text = await readFile(join(TEMPLATE_DIR, file), 'utf8');
    const plain = variant === null ? file : `${variant[1]}${variant[3]}`;
    const out = plain === 'gitignore' ? '.gitignore' : plain;
    const filled = text.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => values[key] ?? whole);
    await mkdir(dirname(join(target, out)), { recursive: true });
    await writeFile(join(target, out), filled);
    written.push(out);
  }
  return written.sort();
}

export async function run(argv: string[]): Promise<number> {
  try {
    const { values, positionals } = parseCommandArgs(argv, {
      dir: { type: 'string' },
      plain: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const [name, ...extra] = positionals;
    if (name === undefined || extra.length > 0) throw new UsageError('expected exactly one NAME');
    const target = resolve(values.dir ?? '.', name);
    const files = await scaffoldPlugin(name, target, values.plain ? 'plain' : 'context');
    const shown = relative(process.cwd(), target) || '.';
    process.stdout.write(
      `created ${target}\n${files.map((f) => `  ${f}\n`).join('')}\nnext:\n` +
        `  make -C ${shown}\n` +
        `  entropic-mcp serve --plugin "${join(target, 'build', `lib${name}.so`)}"\n`,
    );
    return 0;
  } catch (error) {
    return report('new-plugin', error);
  }
}

// Generates every file (headers, tables) from the ABI model, in memory or into a folder.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { renderHeaders } from './emit/headers.js';
import { renderTables } from './emit/tables.js';
import { readAbiModel } from './model/read-model.js';
import type { AbiModel } from './model/types.js';
import { abiHeadersRoot } from './paths.js';

/** Where the headers go, relative to the abi-headers package root (or to `--out`). */
export const INCLUDE_DIR = 'include';

export interface GenerateOptions {
  /** Root to write under instead of the abi-headers package (same layout: include/, native/, src/generated/). */
  out?: string;
  /** Write the files (default true); false only renders them. */
  write?: boolean;
  /** Use this model instead of reading the installed definitions. */
  model?: AbiModel;
  /** Read the definitions from this folder. */
  definitionsDir?: string;
}

/**
 * Renders every generated file (the headers and the loader tables) and, unless `write` is false,
 * writes them. Returns the file map: paths relative to the abi-headers root → exact text.
 */
export function generateAll(options: GenerateOptions = {}): Record<string, string> {
  const model =
    options.model ?? readAbiModel(options.definitionsDir ? { definitionsDir: options.definitionsDir } : {});
  const files: Record<string, string> = {};
  for (const [path, text] of Object.entries(renderHeaders(model))) files[`${INCLUDE_DIR}/${path}`] = text;
  Object.assign(files, renderTables(model));
  if (options.write !== false) {
    const root = resolve(options.out ?? abiHeadersRoot());
    for (const [path, text] of Object.entries(files)) {
      const target = join(root, path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, text);
    }
  }
  return files;
}

// The config file being read: where each of its keys and values sits, so that every refusal names the file and
// the line, and the checks each part of the config makes of its keys and values, worded once.
import { createRequire } from 'node:module';
import { dirname, isAbsolute, resolve } from 'node:path';
import { didYouMean } from '@entropic-mcp/loader/internal';
import type * as Yaml from 'yaml';
import { ServeError } from './errors.js';

let yaml: typeof Yaml | undefined;

/**
 * The yaml package, loaded on the first config or `--sandbox` to read (about 70 modules that a `serve` given only
 * flags never needs); its CommonJS build, so that reading stays synchronous.
 */
export function yamlLib(): typeof Yaml {
  yaml ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return yaml;
}

/** A config file that cannot be used; the message names the file, the line when known, and the offending key. */
export class ConfigError extends ServeError<'ENTROPIC_MCP_CONFIG_INVALID'> {
  override readonly name = 'ConfigError';
  constructor(
    readonly file: string,
    message: string,
    readonly line?: number,
  ) {
    super('ENTROPIC_MCP_CONFIG_INVALID', `${file}${line === undefined ? '' : `:${line}`}: ${message}`);
  }
}

/** Where a key or value sits in the document: mapping keys and list indexes from the top. */
export type Path = readonly (string | number)[];

/** The file being read and where each of its keys and values sits, for messages that name the line. */
export class Source {
  readonly #doc: Yaml.Document.Parsed;
  readonly #lines: Yaml.LineCounter;

  constructor(
    readonly file: string,
    text: string,
  ) {
    const { LineCounter, parseDocument } = yamlLib();
    this.#lines = new LineCounter();
    this.#doc = parseDocument(text, { lineCounter: this.#lines });
    const [syntax] = this.#doc.errors;
    if (syntax !== undefined)
      throw new ConfigError(file, `not valid YAML: ${syntax.message}`, syntax.linePos?.[0].line);
  }

  data(): unknown {
    return this.#doc.toJS();
  }

  /** The line of the key `key` in the mapping at `path`, or of the value at `path` when `key` is undefined. */
  line(path: Path, key?: string): number | undefined {
    const node = path.length === 0 ? this.#doc.contents : this.#doc.getIn(path, true);
    let offset: number | undefined;
    if (key !== undefined && yamlLib().isMap(node)) {
      const pair = node.items.find((item) => (item.key as { value?: unknown } | null)?.value === key);
      offset = (pair?.key as { range?: [number, number, number] } | undefined)?.range?.[0];
    } else offset = (node as { range?: [number, number, number] } | null | undefined)?.range?.[0];
    return offset === undefined ? undefined : this.#lines.linePos(offset).line;
  }

  /** A refusal of the value at `path` (or of its key `key`), on its line. */
  error(message: string, path: Path, key?: string): ConfigError {
    return new ConfigError(this.file, message, this.line(path, key));
  }
}

/** Refuses a key of `where` that is not one of `known`, suggesting the nearest. */
export function checkKeys(
  source: Source,
  where: string,
  path: Path,
  raw: Record<string, unknown>,
  known: readonly string[],
): void {
  for (const key of Object.keys(raw)) {
    if (known.includes(key)) continue;
    throw source.error(
      `${where} has an unknown key "${key}"${didYouMean(key, known)} (known: ${known.join(', ')})`,
      path,
      key,
    );
  }
}

/** A YAML mapping (not a list, not a scalar). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A whole number above zero, else the refusal naming `where`. */
export function positiveInt(source: Source, where: string, path: Path, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw source.error(`${where} must be a positive integer, got ${JSON.stringify(value)}`, path);
  }
  return value;
}

/** A path in the config (a plugin, a tools module, the working folder): relative ones are taken from the file's folder. */
export function configPath(source: Source, where: string, path: Path, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw source.error(`${where} must be a non-empty path string, got ${JSON.stringify(value)}`, path);
  }
  return isAbsolute(value) ? value : resolve(dirname(source.file), value);
}

// The sandbox settings of `serve`: a plugin entry's `sandbox:` in the config and the `--sandbox SPEC` default for
// every plugin (SPEC is the same mapping, written inline as YAML), read into the loader's SandboxOptions. Keys are
// those of the config (`memory_mb`); relative paths are taken from the config file's folder, or the current one.
import { isAbsolute, resolve } from 'node:path';
import type { Isolation, SandboxOptions } from '@entropic-mcp/loader';
import { checkSandboxOptions, didYouMean } from '@entropic-mcp/loader/internal';
import { yamlLib } from './source.js';

const KEYS = {
  read: 'read',
  write: 'write',
  connect: 'connect',
  bind: 'bind',
  udp: 'udp',
  exec: 'exec',
  processes: 'processes',
  memory_mb: 'memoryMb',
  cpu_seconds: 'cpuSeconds',
  open_files: 'openFiles',
  required: 'required',
  audit: 'audit',
} as const satisfies Record<string, keyof SandboxOptions>;

const spell = (key: keyof SandboxOptions): string =>
  Object.entries(KEYS).find(([, option]) => option === key)?.[0] ?? key;

/**
 * A `sandbox:` value: a mapping of settings (empty or `true`: the strictest sandbox), or `false` for none even when
 * `--sandbox` gives a default. Throws a TypeError naming `where` and the key.
 */
export function readSandbox(value: unknown, where: string, base: string): SandboxOptions | false {
  if (value === false) return false;
  if (value === null || value === true) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new TypeError(
      `${where} must be a mapping of sandbox settings (read, write, connect, ...) or false`,
    );
  const options: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(value as Record<string, unknown>)) {
    const option = (KEYS as Record<string, keyof SandboxOptions>)[key];
    if (option === undefined)
      throw new TypeError(
        `${where} has an unknown key "${key}"${didYouMean(key, Object.keys(KEYS))} (known: ${Object.keys(KEYS).join(', ')})`,
      );
    const relative = (option === 'read' || option === 'write') && Array.isArray(setting);
    options[option] = relative
      ? setting.map((p: unknown) =>
          typeof p === 'string' && p !== '' && !isAbsolute(p) ? resolve(base, p) : p,
        )
      : setting;
  }
  checkSandboxOptions(options, where, spell);
  return options as SandboxOptions;
}

/** `--sandbox SPEC`: the mapping written inline (`'{read: [/srv/data], connect: [5432]}'`). */
export function readSandboxFlag(text: string, cwd: string): SandboxOptions {
  let value: unknown;
  try {
    value = yamlLib().parse(text);
  } catch (error) {
    throw new TypeError(
      `--sandbox expects a YAML mapping such as '{read: [/srv/data], connect: [5432]}': ${(error as Error).message}`,
    );
  }
  const options = readSandbox(value ?? {}, '--sandbox', cwd);
  if (options === false) throw new TypeError('--sandbox false is the default; leave --sandbox out');
  return options;
}

/**
 * The sandbox a plugin entry gets: its own, else the `--sandbox` default; `--sandbox-audit` puts it in audit mode
 * (giving a plugin with none the strictest one to audit). An in-process plugin with a sandbox is refused.
 */
export function sandboxOf(
  own: SandboxOptions | false | undefined,
  byDefault: SandboxOptions | undefined,
  audit: boolean,
  isolation: Isolation | undefined,
  path: string,
): SandboxOptions | undefined {
  if (own === false) return undefined;
  let sandbox = own ?? byDefault ?? (audit ? {} : undefined);
  if (sandbox !== undefined && audit) sandbox = { ...sandbox, audit: true };
  if (sandbox !== undefined && isolation === 'none')
    throw new TypeError(
      `${path}: a sandbox needs isolation process (the in-process mode cannot be sandboxed); give the plugin isolation: process, or sandbox: false`,
    );
  return sandbox;
}

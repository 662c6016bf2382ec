/**
 * Checks `LoadOptions.sandbox` (see `SandboxOptions` in ../types.ts) before any host runs: each refusal is a
 * `TypeError` naming the field and what was wrong with it.
 */
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { closest } from '../base/suggest.js';
import type { SandboxOptions } from '../base/types.js';

/** The host takes no more of each (native/host/sandbox_spec.h). */
export const MAX_SANDBOX_ENTRIES = 64;
/** More is a typo, not a plan: each is a task in the kernel. */
const MAX_PROCESSES = 100_000;

export interface CheckedSandbox {
  readonly read: readonly string[];
  readonly write: readonly string[];
  readonly connect: readonly number[];
  readonly bind: readonly number[];
  readonly udp: boolean;
  readonly exec: boolean;
  readonly processes: number | undefined;
  readonly memoryMb: number | undefined;
  readonly cpuSeconds: number | undefined;
  readonly openFiles: number | undefined;
  readonly required: boolean;
  readonly audit: boolean;
}

const KEYS: readonly (keyof SandboxOptions)[] = [
  'read',
  'write',
  'connect',
  'bind',
  'udp',
  'exec',
  'processes',
  'memoryMb',
  'cpuSeconds',
  'openFiles',
  'required',
  'audit',
];

function paths(value: unknown, what: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new TypeError(`${what} must be a list of absolute paths`);
  if (value.length > MAX_SANDBOX_ENTRIES)
    throw new TypeError(`${what} lists ${value.length} paths; at most ${MAX_SANDBOX_ENTRIES}`);
  return value.map((path, i) => {
    const where = `${what}[${i}]`;
    if (typeof path !== 'string' || path === '') throw new TypeError(`${where} must be a non-empty path`);
    if (/[\0\n]/.test(path)) throw new TypeError(`${where} must not contain a NUL or a newline`);
    if (!isAbsolute(path)) throw new TypeError(`${where} must be absolute, got "${path}"`);
    if (!existsSync(path))
      throw new TypeError(`${where} ${path} does not exist (a sandbox rule needs the path to be there)`);
    return path;
  });
}

function ports(value: unknown, what: string): number[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new TypeError(`${what} must be a list of TCP port numbers`);
  if (value.length > MAX_SANDBOX_ENTRIES)
    throw new TypeError(`${what} lists ${value.length} ports; at most ${MAX_SANDBOX_ENTRIES}`);
  return value.map((port, i) => {
    if (Number.isInteger(port) && port >= 0 && port <= 65535) return port as number;
    const hint =
      typeof port === 'string' && /:\d+$/.test(port)
        ? ` (the sandbox filters TCP by port, not by address: write ${port.slice(port.lastIndexOf(':') + 1)})`
        : '';
    throw new TypeError(
      `${what}[${i}] must be a TCP port number 0-65535, got ${JSON.stringify(port)}${hint}`,
    );
  });
}

function flag(value: unknown, what: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean')
    throw new TypeError(`${what} must be true or false, got ${JSON.stringify(value)}`);
  return value;
}

function count(value: unknown, what: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || (value as number) < min || (value as number) > max)
    throw new TypeError(`${what} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return value as number;
}

/**
 * `options.sandbox` checked; `what` names it in messages, and `spell` each of its keys (serve's config writes
 * `memory_mb` where the API writes `memoryMb`).
 */
export function checkSandboxOptions(
  value: unknown,
  what = 'options.sandbox',
  spell: (key: keyof SandboxOptions) => string = (key) => key,
): CheckedSandbox {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new TypeError(`${what} must be an object (use {} for the strictest sandbox)`);
  const o = value as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if ((KEYS as readonly string[]).includes(key)) continue;
    const known = KEYS.map(spell);
    const near = closest(key, known);
    throw new TypeError(
      `${what} has an unknown key "${key}"${near === undefined ? '' : `; did you mean "${near}"?`} (known: ${known.join(', ')})`,
    );
  }
  const at = (key: keyof SandboxOptions) => `${what}.${spell(key)}`;
  return {
    read: paths(o.read, at('read')),
    write: paths(o.write, at('write')),
    connect: ports(o.connect, at('connect')),
    bind: ports(o.bind, at('bind')),
    udp: flag(o.udp, at('udp'), false),
    exec: flag(o.exec, at('exec'), false),
    processes: count(o.processes, at('processes'), 0, MAX_PROCESSES),
    memoryMb: count(o.memoryMb, at('memoryMb'), 1, 1 << 30),
    cpuSeconds: count(o.cpuSeconds, at('cpuSeconds'), 1, 1 << 30),
    openFiles: count(o.openFiles, at('openFiles'), 1, 1 << 20),
    required: flag(o.required, at('required'), true),
    audit: flag(o.audit, at('audit'), false),
  };
}

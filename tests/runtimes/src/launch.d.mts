// Types of launch.mjs: the example servers of examples/runtimes/ started on the real runtimes.
export type RuntimeName = 'bun' | 'deno' | 'workers';

export interface RuntimeSpec {
  readonly title: string;
  command(): string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly ready: 'stdout' | 'control';
}

export const RUNTIMES: Readonly<Record<RuntimeName, RuntimeSpec>>;

export interface Launched {
  /** The MCP endpoint, http://127.0.0.1:<port>/mcp. */
  readonly url: string;
  readonly pid: number;
  /** What the runtime printed so far (stdout and stderr). */
  output(): string;
  stop(graceMs?: number): Promise<void>;
}

/** Starts `name`'s example, or the same file names in `cwd` (server.ts, or wrangler.json for workers). */
export function launch(name: RuntimeName, options?: { timeoutMs?: number; cwd?: string }): Promise<Launched>;

// What is derived from the serve option table (./options.ts): parseArgs' options, `serve --help`, the config
// file's known keys, the settings the table reads itself (with their type) and the HTTP handler options they give.
import type { McpHttpHandlerOptions } from '@entropic-mcp/server/http';
import { type OptionRow, SERVE_OPTIONS } from './options.js';
import type { Reader } from './values.js';

type Row = (typeof SERVE_OPTIONS)[number];
type Read<R> = R extends { readonly setting: infer K extends string; readonly read: Reader<infer T> }
  ? [K, T]
  : never;

/** The settings the table reads itself, by name, as ServeArgs, ServeFileConfig and ServePlan hold them. */
export type TableSettings = { readonly [P in Read<Row> as P[0]]?: P[1] };

/** The rows this table reads and merges itself. */
export const TABLE_READ: readonly (OptionRow & { setting: string; read: Reader<unknown> })[] =
  SERVE_OPTIONS.filter((row): row is Extract<Row, { setting: string }> => 'setting' in row);

/** Every key serve reads under `mcp:` in the config file. */
export const MCP_KEYS: readonly string[] = SERVE_OPTIONS.flatMap((row) => ('yaml' in row ? [row.yaml] : []));

/** Every flag, as `node:util` parseArgs takes them (typed per flag, so the values parseArgs returns are). */
export const PARSE_OPTIONS = Object.fromEntries(
  SERVE_OPTIONS.flatMap((row: OptionRow) =>
    row.flag === undefined
      ? []
      : [
          [
            row.flag,
            {
              type: row.value === undefined ? 'boolean' : 'string',
              ...(row.repeat ? { multiple: true } : {}),
              ...(row.short === undefined ? {} : { short: row.short }),
            },
          ],
        ],
  ),
) as unknown as {
  [R in Row as R extends { flag: infer F extends string } ? F : never]: {
    type: R extends { value: string } ? 'string' : 'boolean';
    multiple: R extends { repeat: true } ? true : false;
  };
};

/** `serve --help`: the synopsis, then one entry per flag. */
export function serveUsage(): string {
  const flags = SERVE_OPTIONS.filter((row: OptionRow) => row.flag !== undefined && row.flag !== 'help');
  const synopsis: string[] = ['usage: entropic-mcp serve'];
  for (const row of flags as readonly OptionRow[]) {
    const item = `[--${row.flag}${row.value === undefined ? '' : ` ${row.value}`}]${row.repeat ? '...' : ''}`;
    const last = synopsis.length - 1;
    if (`${synopsis[last]} ${item}`.length > 112) synopsis.push(`${' '.repeat(26)}${item}`);
    else synopsis[last] = `${synopsis[last]} ${item}`;
  }
  const entries = (flags as readonly OptionRow[]).flatMap((row) => {
    const head = `--${row.flag}${row.value === undefined ? '' : ` ${row.value}`}`;
    const [first = '', ...rest] = row.help ?? [];
    return [`  ${head.padEnd(18)}  ${first}`, ...rest.map((line) => `${' '.repeat(22)}${line}`)];
  });
  return [
    ...synopsis,
    '',
    ...entries,
    'OpenTelemetry: OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_TRACES_EXPORTER/OTEL_METRICS_EXPORTER=otlp) exports',
    'spans and metrics over OTLP (OTEL_EXPORTER_OTLP_PROTOCOL http/protobuf or http/json); OTEL_SERVICE_NAME,',
    'OTEL_TRACES_SAMPLER and the other standard variables apply',
  ].join('\n');
}

/** The HTTP handler options the table's settings give (`allowedHosts`, `keepAliveMs`, …). */
export function handlerOptions(settings: TableSettings): Partial<McpHttpHandlerOptions> {
  const out: Record<string, unknown> = {};
  for (const row of TABLE_READ) {
    const value = (settings as Record<string, unknown>)[row.setting];
    if (row.handler !== undefined && value !== undefined) out[row.handler] = value;
  }
  return out as Partial<McpHttpHandlerOptions>;
}

// The option table against what is derived from it: parseArgs knows every flag, `serve --help` explains every flag,
// the config file reads every key, and the options table of docs/serve.md has a row for every flag naming its config key.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVE_USAGE } from './args.js';
import { MCP_KEYS, PARSE_OPTIONS } from './option-uses.js';
import { type OptionRow, SERVE_OPTIONS } from './options.js';

const ROWS: readonly OptionRow[] = SERVE_OPTIONS;
const README = readFileSync(new URL('../../../../docs/serve.md', import.meta.url), 'utf8');
/** The table of serve options in docs/serve.md: its lines that start with a flag. */
const tableLines = README.split('\n').filter((line) => line.startsWith('| `--'));

describe('the serve option table', () => {
  it('gives parseArgs every flag and the config file every key, each once', () => {
    const flags = ROWS.flatMap((row) => (row.flag === undefined ? [] : [row.flag]));
    expect(Object.keys(PARSE_OPTIONS)).toEqual(flags);
    expect(new Set(flags).size).toBe(flags.length);
    expect(new Set(MCP_KEYS).size).toBe(MCP_KEYS.length);
  });

  it.each(ROWS.filter((row) => row.flag !== undefined && row.flag !== 'help').map((row) => [row.flag, row]))(
    '--%s: explained by serve --help, and a row of the docs/serve.md table that names its config key',
    (flag, row) => {
      expect(SERVE_USAGE).toContain(`  --${flag}`);
      const named = new RegExp(`--${flag}(?![\\w-])`);
      const line = tableLines.find((l) => named.test(l.split('|')[1] ?? ''));
      expect(line, `the options table of docs/serve.md has no row for --${flag}`).toBeDefined();
      if (row.yaml !== undefined)
        expect(line, `the docs/serve.md row of --${flag}`).toContain(`mcp.${row.yaml}`);
    },
  );

  it.each(ROWS.filter((row) => row.flag === undefined).map((row) => [row.yaml]))(
    'mcp.%s (config file only) is named in docs/serve.md',
    (key) => {
      expect(README).toContain(`mcp.${key}`);
    },
  );
});

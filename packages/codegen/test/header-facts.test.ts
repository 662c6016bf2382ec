// The committed headers hold the contract facts (guards, order, macros, values).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { abiHeadersRoot } from '../src/index.js';
import { CONTRACT_ENTRY_POINTS, CONTRACT_ERRORS } from './support/contract-facts.js';

const read = (path: string) => readFileSync(join(abiHeadersRoot(), 'include', path), 'utf8');
/** The header without comments, with one space between tokens. */
const code = (text: string) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0);

describe('the committed headers hold the contract facts', () => {
  const plugin = code(read('entropic/interfaces/i_mcp_server.h'));

  it('i_mcp_server.h: pragma once, the three includes in order, extern "C" guard, version macro after it', () => {
    expect(plugin.slice(0, 4)).toEqual([
      '#pragma once',
      '#include <stddef.h>',
      '#include <entropic/entropic_export.h>',
      '#include <entropic/types/error.h>',
    ]);
    const open = plugin.indexOf('extern "C" {');
    const close = plugin.lastIndexOf('}');
    expect(plugin[open - 1]).toBe('#ifdef __cplusplus');
    expect(plugin.slice(close - 1, close + 2)).toEqual(['#ifdef __cplusplus', '}', '#endif']);
    expect(plugin[plugin.length - 1]).toBe('#define ENTROPIC_MCP_PLUGIN_API_VERSION 1');
    expect(plugin.indexOf('typedef struct entropic_mcp_server* entropic_mcp_server_t;')).toBeGreaterThan(
      open,
    );
  });

  it('declares each of the nine entry points once, with ENTROPIC_EXPORT, in contract order', () => {
    const joined = plugin.join(' ').replace(/\s*,\s*/g, ', ');
    let last = -1;
    for (const [name, ret] of CONTRACT_ENTRY_POINTS) {
      const at = joined.indexOf(`ENTROPIC_EXPORT ${ret} ${name}(`);
      expect(at, name).toBeGreaterThan(last);
      expect(joined.split(` ${name}(`)).toHaveLength(2);
      last = at;
    }
    expect(joined.match(/ENTROPIC_EXPORT /g)).toHaveLength(CONTRACT_ENTRY_POINTS.length);
  });

  it('error.h: an anonymous typedef enum with all 55 values', () => {
    const error = code(read('entropic/types/error.h'));
    expect(error[0]).toBe('#pragma once');
    expect(error[1]).toBe('typedef enum {');
    expect(error[error.length - 1]).toBe('} entropic_error_t;');
    expect(error.slice(2, -1)).toEqual(
      CONTRACT_ERRORS.map(([n, v], i) => `${n} = ${v}${i === CONTRACT_ERRORS.length - 1 ? '' : ','}`),
    );
  });

  it('entropic_export.h: the four platform cases', () => {
    expect(code(read('entropic/entropic_export.h'))).toEqual([
      '#pragma once',
      '#if defined(ENTROPIC_STATIC_BUILD)',
      '#define ENTROPIC_EXPORT',
      '#elif defined(_WIN32) && defined(ENTROPIC_BUILDING_DLL)',
      '#define ENTROPIC_EXPORT __declspec(dllexport)',
      '#elif defined(_WIN32)',
      '#define ENTROPIC_EXPORT __declspec(dllimport)',
      '#else',
      '#define ENTROPIC_EXPORT __attribute__((visibility("default")))',
      '#endif',
    ]);
  });
});

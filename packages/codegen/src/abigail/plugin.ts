// Verifies a built plugin library against the reference ABI: exported entry points and, when the
// library carries DWARF, the signatures of those functions.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withTempDir } from './build.js';
import { abidiff, reportedFunctions } from './diff.js';
import { abigailAvailable, runTool } from './tools.js';

/** The function symbols a reference dump lists: the entry points every plugin must export. */
export function referenceFunctions(referenceXml: string): string[] {
  const section = /<elf-function-symbols>([\s\S]*?)<\/elf-function-symbols>/.exec(referenceXml)?.[1] ?? '';
  return [...section.matchAll(/<elf-symbol name='([^']+)'/g)].map((m) => m[1]!);
}

/** Dynamic symbols a library defines (or, with `undefined`, needs), by name, with nm's type letter. */
export function dynamicSymbols(lib: string, which: 'defined' | 'undefined' = 'defined'): Map<string, string> {
  const r = runTool('nm', ['-D', `--${which}-only`, lib]);
  if (r.status !== 0) throw new Error(`nm could not read ${lib}: ${r.stderr.trim()}`);
  const out = new Map<string, string>();
  for (const line of r.stdout.split('\n')) {
    // `ADDRESS TYPE NAME` for defined symbols, `TYPE NAME` for undefined ones.
    const m = /^(?:\S+\s+)?([A-Za-z])\s+(\S+?)(@.*)?$/.exec(line.trim());
    if (m) out.set(m[2]!, m[1]!);
  }
  return out;
}

/** True when the library has a .debug_info section. */
export function hasDwarf(lib: string): boolean {
  const r = runTool('readelf', ['-S', '--wide', lib]);
  if (r.status !== 0) throw new Error(`readelf could not read ${lib}: ${r.stderr.trim()}`);
  return /\s\.debug_info\s/.test(r.stdout);
}

export interface FunctionDrift {
  name: string;
  /** abidiff's account of the change, as indented lines. */
  detail: string;
}

export interface PluginVerdict {
  required: string[];
  /** Optional entry points (the plugin context) the library exports as functions. */
  optionalExported: string[];
  /** Entry points the library does not export at all. */
  missing: string[];
  /** Entry points exported, but not as functions (with nm's type letter). */
  notFunctions: { name: string; type: string }[];
  /**
   * `entropic_*` symbols the library needs but does not define, such as the engine's
   * `entropic_error_name`: no loader provides them, so the library would fail to load.
   */
  engineCalls: string[];
  /** Why the signatures were not compared, when they were not. */
  signaturesSkipped?: string;
  drift: FunctionDrift[];
}

const FUNCTION_TYPES = new Set(['T', 'W', 'i']);

const alternation = (names: string[]) => names.map((n) => n.replace(/[^\w]/g, '')).join('|');

function suppressionsFor(required: string[], optional: string[]): string {
  const lines = [
    '[suppress_variable]',
    '  name_regexp = .*',
    '[suppress_function]',
    `  name_not_regexp = ^(${alternation([...required, ...optional])})$`,
    '[suppress_function]',
    '  change_kind = added-function',
  ];
  // An optional entry point the plugin leaves out is not a fault; one it defines must match.
  if (optional.length > 0)
    lines.push(
      '[suppress_function]',
      `  name_regexp = ^(${alternation(optional)})$`,
      '  change_kind = deleted-function',
    );
  return `${lines.join('\n')}\n`;
}

/** abidiff's report split into one block per changed function. */
function driftBlocks(report: string): FunctionDrift[] {
  const { changed } = reportedFunctions(report);
  const blocks = report.split(/\n(?=\s*\[[CDA]\] )/);
  return changed.map((name) => {
    const block = blocks.find((b) => new RegExp(`\\[C\\] 'function [^']*\\b${name}\\(`).test(b)) ?? '';
    return { name, detail: block.trim() };
  });
}

/**
 * Checks `lib` against the reference dump. `optional` names the optional entry points (from the lock): the
 * reference lists them too, but a plugin need not export them.
 */
export function verifyPlugin(
  lib: string,
  referenceFile: string,
  referenceXml: string,
  optional: readonly string[] = [],
): PluginVerdict {
  const listed = referenceFunctions(referenceXml);
  const required = listed.filter((n) => !optional.includes(n));
  const optionalListed = listed.filter((n) => optional.includes(n));
  const symbols = dynamicSymbols(lib);
  const missing = required.filter((n) => !symbols.has(n));
  const notFunctions = required
    .filter((n) => symbols.has(n) && !FUNCTION_TYPES.has(symbols.get(n)!))
    .map((name) => ({ name, type: symbols.get(name)! }));
  const engineCalls = [...dynamicSymbols(lib, 'undefined').keys()]
    .filter((n) => n.startsWith('entropic_'))
    .sort();
  const optionalExported = optionalListed.filter((n) => FUNCTION_TYPES.has(symbols.get(n) ?? ''));
  const verdict: PluginVerdict = {
    required,
    optionalExported,
    missing,
    notFunctions,
    engineCalls,
    drift: [],
  };
  if (!hasDwarf(lib)) {
    verdict.signaturesSkipped =
      'the library has no DWARF debug information (build it with -g to compare signatures)';
  } else if (!abigailAvailable()) {
    verdict.signaturesSkipped = 'abigail-tools is not installed (apt-get install -y abigail-tools)';
  } else {
    verdict.drift = withTempDir('entropic-verify-', (dir) => {
      const supp = join(dir, 'plugin.suppr');
      writeFileSync(supp, suppressionsFor(required, optionalListed));
      const d = abidiff(referenceFile, lib, { suppressions: supp });
      return d.changed ? driftBlocks(d.report) : [];
    });
  }
  return verdict;
}

export function pluginVerdictOk(v: PluginVerdict): boolean {
  return (
    v.missing.length === 0 &&
    v.notFunctions.length === 0 &&
    v.engineCalls.length === 0 &&
    v.drift.length === 0
  );
}

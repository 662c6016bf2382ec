// Rule: the committed generated files (headers and loader tables) equal a fresh generation.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { generateAll, INCLUDE_DIR } from '../generate.js';
import type { AbiModel } from '../model/types.js';
import { type Finding, GENERATE_COMMAND_HINT } from './types.js';

function firstDifference(
  committed: string,
  fresh: string,
): { line: number; committed: string; fresh: string } {
  const a = committed.split('\n');
  const b = fresh.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i])
      return { line: i + 1, committed: a[i] ?? '(end of file)', fresh: b[i] ?? '(end of file)' };
  }
  return { line: 0, committed: '', fresh: '' };
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/**
 * Compares every generated file with what is on disk under the package root `root`; `label` is the
 * root as the developer knows it (a repository-relative path) so messages name the real file.
 */
export function checkGeneratedFiles(model: AbiModel, root: string, label: string): Finding[] {
  const findings: Finding[] = [];
  const files = generateAll({ model, write: false });
  const fix = `Run \`${GENERATE_COMMAND_HINT}\` and commit the result; generated files are never edited by hand.`;
  for (const [path, text] of Object.entries(files)) {
    const file = join(root, path);
    const shown = `${label}/${path}`;
    if (!existsSync(file)) {
      findings.push({
        rule: 'generated-files',
        message: `${shown} is missing; it is generated from the definitions. ${fix}`,
      });
      continue;
    }
    const committed = readFileSync(file, 'utf8');
    if (committed === text) continue;
    const d = firstDifference(committed, text);
    findings.push({
      rule: 'generated-files',
      message:
        `${shown} differs from a fresh generation, first at line ${d.line}:\n` +
        `    committed: ${d.committed}\n    generated: ${d.fresh}\n${fix}`,
    });
  }
  const generated = new Set(Object.keys(files));
  for (const file of listFiles(join(root, INCLUDE_DIR))) {
    const path = relative(root, file).split('\\').join('/');
    if (generated.has(path)) continue;
    findings.push({
      rule: 'generated-files',
      message: `${label}/${path} is not produced by any definition; remove it or add its definition, then run \`${GENERATE_COMMAND_HINT}\`.`,
    });
  }
  return findings;
}

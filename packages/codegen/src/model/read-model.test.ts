// readAbiModel keeps the models it read in this process by the definitions' names and bytes: a read after an edit,
// a rename or a fix gives the model of what is on disk now, and each caller gets a copy of its own.
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultDefinitionsDir } from '../paths.js';
import { readAbiModel } from './read-model.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the real definitions in a folder of its own. */
function copy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'entropic-model-cache-'));
  made.push(dir);
  cpSync(defaultDefinitionsDir(), dir, { recursive: true });
  return dir;
}

function replaceIn(path: string, from: string, to: string): void {
  const text = readFileSync(path, 'utf8');
  expect(text, `${from} in ${path}`).toContain(from);
  writeFileSync(path, text.replace(from, to));
}

const read = (dir: string) => readAbiModel({ definitionsDir: dir });
const FROM = 'ENTROPIC_ERROR_TIER_MODEL_TOO_LARGE = 53';
const TO = 'ENTROPIC_ERROR_TIER_MODEL_TOO_LARGE = 57';

function enumerator(model: ReturnType<typeof read>, name: string): number | undefined {
  for (const header of model.headers)
    for (const item of header.items)
      if (item.kind === 'enum') {
        const found = item.enumerators.find((m) => m.name === name);
        if (found) return found.value;
      }
  return undefined;
}

describe('readAbiModel: models already read in this process', () => {
  it('an edit in the same folder reads anew; undoing it gives the first model back', () => {
    const dir = copy();
    const first = read(dir);
    expect(enumerator(first, 'ENTROPIC_ERROR_TIER_MODEL_TOO_LARGE')).toBe(53);
    replaceIn(join(dir, 'error.ts'), FROM, TO);
    const edited = read(dir);
    expect(enumerator(edited, 'ENTROPIC_ERROR_TIER_MODEL_TOO_LARGE')).toBe(57);
    replaceIn(join(dir, 'error.ts'), TO, FROM);
    expect(read(dir)).toEqual(first);
  });

  it('the same bytes in another folder give an equal model; a renamed file does not', () => {
    const a = copy();
    const b = copy();
    expect(read(b)).toEqual(read(a));
    renameSync(join(b, 'error.ts'), join(b, 'errors.ts'));
    const renamed = read(b);
    expect(renamed.headers.map((h) => h.source)).toContain('errors.ts');
    expect(renamed.headers.map((h) => h.source)).not.toContain('error.ts');
  });

  it('each call returns a copy of its own: changing one leaves the next read alone', () => {
    const dir = copy();
    const first = read(dir);
    const count = first.headers.length;
    first.headers.length = 0;
    (first as { apiVersion: number }).apiVersion = 999;
    const again = read(dir);
    expect(again.headers).toHaveLength(count);
    expect(again.apiVersion).not.toBe(999);
  });

  it('a definition error is not kept: it is thrown on every read, and the fixed files read', () => {
    const dir = copy();
    const good = read(dir);
    replaceIn(join(dir, 'error.ts'), FROM, 'ENTROPIC_ERROR_TIER_MODEL_TOO_LARGE = "x"');
    for (let i = 0; i < 2; i++) expect(() => read(dir)).toThrow(/error\.ts/);
    replaceIn(join(dir, 'error.ts'), 'ENTROPIC_ERROR_TIER_MODEL_TOO_LARGE = "x"', FROM);
    expect(read(dir)).toEqual(good);
  });
});

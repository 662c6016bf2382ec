// Reads the ABI definitions (TypeScript, via ts-morph) into one ABI model.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { SourceFile } from 'ts-morph';
import { defaultDefinitionsDir } from '../paths.js';
import { checkIncludes } from './check-includes.js';
import { AbiDefinitionError, errorAt } from './errors.js';
import { type FileContents, readFile } from './read-declarations.js';
import { readDoc } from './read-doc.js';
import type { KnownTypes } from './read-type.js';
import { tsMorph, tsNode } from './ts-morph.js';
import type { AbiHeader, AbiModel } from './types.js';
import { C_VOCABULARY, VOCABULARY_FILE } from './vocabulary.js';

/** The macro whose value is the plugin API version. */
export const VERSION_MACRO = 'ENTROPIC_MCP_PLUGIN_API_VERSION';

function checkVocabulary(file: SourceFile): void {
  for (const alias of file.getTypeAliases()) {
    const node = alias.getTypeNodeOrThrow();
    if (!tsNode().isTypeReference(node) || node.getTypeName().getText() !== 'CType') continue;
    const [arg] = node.getTypeArguments();
    const spelling =
      arg && tsNode().isLiteralTypeNode(arg) ? arg.getLiteral().getText().slice(1, -1) : undefined;
    if (C_VOCABULARY[alias.getName()] !== spelling) {
      throw errorAt(
        alias,
        `C type alias '${alias.getName()}' (${spelling}) is not in the reader's vocabulary`,
      );
    }
  }
  // The reader's vocabulary may know more than these definitions declare: definitions written before a
  // type joined the vocabulary (a base or a release the gate compares with) still read.
}

function collectTypes(files: SourceFile[]): KnownTypes {
  const typedefs = new Set<string>();
  const structs = new Set<string>();
  for (const file of files) {
    for (const alias of file.getTypeAliases()) typedefs.add(alias.getName());
    for (const e of file.getEnums()) typedefs.add(e.getName());
    for (const i of file.getInterfaces()) structs.add(i.getName());
  }
  return { typedefs, structs };
}

function toHeader(file: SourceFile, source: string, contents: FileContents): AbiHeader {
  if (!contents.header) {
    if (contents.items.length === 0) throw errorAt(file, 'a definition file without declarations');
    throw errorAt(file, "declarations without a 'header' spec (export const header = {...})");
  }
  const docNode = contents.header.node;
  const doc = tsNode().isVariableStatement(docNode)
    ? readDoc(docNode)
    : readDoc(file.getVariableStatementOrThrow('header'));
  return {
    path: contents.header.path,
    source,
    includes: contents.header.includes,
    doc,
    items: contents.items,
  };
}

/**
 * Models already read in this process, by a hash of the definition files' names and bytes. The reader parses
 * exactly those bytes and looks at nothing else (no other file, no type checker), so equal hashes give equal
 * models. The gate reads the same definitions several times in one run (head, base and release; generate, lock
 * and abi-dump in turn). The oldest entry goes once MODELS_KEPT are held.
 */
const models = new Map<string, AbiModel>();
const MODELS_KEPT = 32;

/** Reads the TypeScript ABI definitions into one plain-JSON model (a copy of its own: callers may change it). */
export function readAbiModel(options: { definitionsDir?: string } = {}): AbiModel {
  const dir = resolve(options.definitionsDir ?? defaultDefinitionsDir());
  const sources = readdirSync(dir)
    .filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts') && !n.endsWith('.d.ts'))
    .sort()
    .map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }));
  const hash = createHash('sha256');
  for (const { name, text } of sources) hash.update(`${name}\0${text}\0`);
  const key = hash.digest('hex');
  let model = models.get(key);
  if (!model) {
    model = parseDefinitions(dir, sources);
    if (models.size >= MODELS_KEPT) models.delete(models.keys().next().value as string);
    models.set(key, model);
  }
  return structuredClone(model);
}

function parseDefinitions(dir: string, sources: { name: string; text: string }[]): AbiModel {
  const project = new (tsMorph().Project)({
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
  });
  const files = sources.map(({ name, text }) =>
    project.createSourceFile(join(dir, name), text, { overwrite: true }),
  );
  const typedefs = collectTypes(files.filter((f) => f.getBaseName() !== VOCABULARY_FILE));
  const headers: AbiHeader[] = [];
  let directiveTypes: string[] | undefined;
  for (const file of files) {
    if (file.getBaseName() === VOCABULARY_FILE) {
      checkVocabulary(file);
      continue;
    }
    const contents = readFile(file, typedefs);
    if (contents.directiveTypes) directiveTypes = contents.directiveTypes;
    if (contents.header || contents.items.length > 0)
      headers.push(toHeader(file, file.getBaseName(), contents));
  }
  headers.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return finish(dir, headers, directiveTypes);
}

function finish(dir: string, headers: AbiHeader[], directiveTypes: string[] | undefined): AbiModel {
  const items = headers.flatMap((h) => h.items);
  const version = items.find((i) => i.kind === 'define' && i.name === VERSION_MACRO);
  if (version?.kind !== 'define') {
    throw new AbiDefinitionError(dir, 0, `no '${VERSION_MACRO}' constant is declared`);
  }
  const exportMacros = items.filter((i) => i.kind === 'export-macro');
  if (exportMacros.length !== 1 || !exportMacros[0]) {
    throw new AbiDefinitionError(dir, 0, `expected exactly one export macro, found ${exportMacros.length}`);
  }
  if (!directiveTypes) throw new AbiDefinitionError(dir, 0, 'no DIRECTIVE_TYPES constant is declared');
  checkIncludes(headers, dir, exportMacros[0].name);
  return {
    modelFormat: 1,
    apiVersion: version.value,
    versionMacro: VERSION_MACRO,
    exportMacro: exportMacros[0].name,
    headers,
    directiveTypes,
  };
}

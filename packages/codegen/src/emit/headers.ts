// Renders the C headers from the ABI model.
import { hasMacroName } from '../model/queries.js';
import type { AbiExportMacro, AbiHeader, AbiItem, AbiModel, AbiStruct } from '../model/types.js';
import { cBanner, definitionSource } from './banner.js';
import { cDeclarator, cFunctionDeclaration } from './c-syntax.js';
import { doxygen } from './doxygen.js';

const INDENT = '    ';

function exportMacro(item: AbiExportMacro): string[] {
  return item.cases.map((c, i) => {
    const condition = c.when.map((m) => `defined(${m})`).join(' && ');
    const directive = i === 0 ? `#if ${condition}` : c.when.length === 0 ? '#else' : `#elif ${condition}`;
    return `${directive}\n#define ${item.name}${c.expands ? ` ${c.expands}` : ''}`;
  });
}

/** The size check of a growable struct: `p` is not NULL and the filled part covers `member`. */
function hasMacro(item: AbiStruct): string[] {
  const name = hasMacroName(item.name);
  return [
    '',
    `/** True when p is not NULL and its size covers member: the host filled it in (see ${item.name}). */`,
    `#define ${name}(p, member) \\`,
    `${INDENT}((p) != NULL && (p)->size >= offsetof(${item.name}, member) + sizeof((p)->member))`,
  ];
}

function renderItem(item: AbiItem, model: AbiModel): string {
  const doc = doxygen(item.doc);
  let body: string[];
  switch (item.kind) {
    case 'handle':
      body = [`typedef struct ${item.tag}* ${item.name};`];
      break;
    case 'function':
      body = [cFunctionDeclaration(item, model.exportMacro)];
      break;
    case 'define':
      body = [`#define ${item.name} ${item.value}`];
      break;
    case 'export-macro':
      body = [...exportMacro(item), '#endif'];
      break;
    case 'struct':
      body = [
        'typedef struct {',
        ...item.members.flatMap((m) => [
          ...doxygen(m.doc, INDENT),
          `${INDENT}${cDeclarator(m.type, m.name)};`,
        ]),
        `} ${item.name};`,
        ...(item.growable ? hasMacro(item) : []),
      ];
      break;
    case 'enum':
      body = [
        'typedef enum {',
        ...item.enumerators.flatMap((e, i) => [
          ...doxygen(e.doc, INDENT),
          `${INDENT}${e.name} = ${e.value}${i === item.enumerators.length - 1 ? '' : ','}`,
        ]),
        `} ${item.name};`,
      ];
      break;
  }
  return [...doc, ...body].join('\n');
}

/** Whether an item needs C linkage (it names a function or a type used by one). */
function inLinkageBlock(item: AbiItem): boolean {
  return item.kind === 'function' || item.kind === 'handle' || item.kind === 'struct';
}

/** Renders one header from the model. */
export function renderHeader(header: AbiHeader, model: AbiModel): string {
  const parts: string[] = [cBanner(definitionSource(header.source)), '#pragma once'];
  parts.push(doxygen(header.doc, '', [`@file ${header.path}`, '']).join('\n'));
  if (header.includes.length > 0) parts.push(header.includes.map((i) => `#include <${i}>`).join('\n'));
  const linked = header.items.filter(inLinkageBlock);
  const before = header.items.filter((i) => !inLinkageBlock(i) && i.kind !== 'define');
  const after = header.items.filter((i) => i.kind === 'define');
  parts.push(...before.map((i) => renderItem(i, model)));
  if (linked.length > 0) {
    parts.push('#ifdef __cplusplus\nextern "C" {\n#endif');
    parts.push(...linked.map((i) => renderItem(i, model)));
    parts.push('#ifdef __cplusplus\n}\n#endif');
  }
  parts.push(...after.map((i) => renderItem(i, model)));
  return `${parts.join('\n\n')}\n`;
}

/** Renders every header; keys are include-relative paths. */
export function renderHeaders(model: AbiModel): Record<string, string> {
  const out: Record<string, string> = {};
  for (const header of model.headers) out[header.path] = renderHeader(header, model);
  return out;
}

// Renders a model doc as the lines of a Doxygen comment.
import type { AbiDoc } from '../model/types.js';

function textLines(text: string): string[] {
  return text.split('\n');
}

/** Renders a doc as a Doxygen block comment; `first` lines (e.g. `@file x`) come before the brief. */
export function doxygen(doc: AbiDoc, indent = '', first: string[] = []): string[] {
  const hasMore = doc.body.length > 0 || doc.params.length > 0 || doc.returns || doc.sections.length > 0;
  if (!doc.summary && !hasMore && first.length === 0) return [];
  if (!hasMore && first.length === 0 && !doc.summary.includes('\n'))
    return [`${indent}/** ${doc.summary} */`];
  const lines: string[] = [...first];
  if (doc.summary) lines.push(...textLines(`@brief ${doc.summary}`));
  for (const paragraph of doc.body) lines.push('', ...textLines(paragraph));
  if (doc.params.length > 0 || doc.returns) lines.push('');
  for (const p of doc.params) lines.push(...textLines(`@param ${p.name} ${p.text}`));
  if (doc.returns) lines.push(...textLines(`@return ${doc.returns}`));
  for (const s of doc.sections) lines.push('', `@par ${s.title}`, ...textLines(s.text));
  return [`${indent}/**`, ...lines.map((l) => (l ? `${indent} * ${l}` : `${indent} *`)), `${indent} */`];
}

// Reads the JSDoc of a definition into a model doc (summary, body, params, sections).
import type { JSDocableNode, Node } from 'ts-morph';
import { errorAt } from './errors.js';
import { tsNode } from './ts-morph.js';
import type { AbiDoc } from './types.js';

/** The plain JSDoc tags a definition may use besides `@param` and `@returns`, with their titles. */
export const SECTION_TAGS: Readonly<Record<string, string>> = {
  loading: 'Loading rules',
  ownership: 'Memory ownership',
  threading: 'Threading',
  descriptors: 'Tool descriptors',
  visibility: 'Symbol visibility',
  lock: 'ABI lock',
  growable: 'Growing',
  optional: 'Optional entry point',
};

const EMPTY: AbiDoc = { summary: '', body: [], params: [], sections: [] };

function clean(node: Node, text: string): string {
  const lines = text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trim();
  if (lines.includes('*/') || lines.includes('/*')) {
    throw errorAt(node, 'documentation must not contain "/*" or "*/" (it becomes a C comment)');
  }
  return lines;
}

/** Reads the last JSDoc block of `node` into an AbiDoc; unknown tags are an error. */
export function readDoc(node: Node & JSDocableNode): AbiDoc {
  const docs = node.getJsDocs();
  const jsDoc = docs[docs.length - 1];
  if (!jsDoc) return { ...EMPTY, params: [], body: [], sections: [] };
  const paragraphs = clean(node, jsDoc.getDescription())
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  const doc: AbiDoc = { summary: paragraphs[0] ?? '', body: paragraphs.slice(1), params: [], sections: [] };
  for (const tag of jsDoc.getTags()) {
    const name = tag.getTagName();
    const text = clean(node, tag.getCommentText() ?? '');
    if (tsNode().isJSDocParameterTag(tag)) {
      doc.params.push({ name: tag.getName(), text });
    } else if (tsNode().isJSDocReturnTag(tag)) {
      doc.returns = text;
    } else if (SECTION_TAGS[name]) {
      doc.sections.push({ tag: name, title: SECTION_TAGS[name], text });
    } else {
      const known = ['param', 'returns', ...Object.keys(SECTION_TAGS)].map((t) => `@${t}`).join(', ');
      throw errorAt(tag, `unknown JSDoc tag @${name} (known tags: ${known}; tag names cannot contain a dot)`);
    }
  }
  return doc;
}

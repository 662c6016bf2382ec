// Reads one TypeScript type node of the definitions into a model type.
import { Node, type TypeNode } from 'ts-morph';
import { errorAt } from './errors.js';
import type { AbiParam, AbiType } from './types.js';
import { C_VOCABULARY } from './vocabulary.js';

export type TypeUse = 'return' | 'parameter' | 'member';

/** Maps a TypeScript type node to an AbiType, or throws naming the file, line and type. */
export function readType(
  node: TypeNode | undefined,
  owner: Node,
  use: TypeUse,
  typedefs: Set<string>,
): AbiType {
  if (!node) throw errorAt(owner, `missing type annotation (every ${use} needs a C type)`);
  if (use === 'member' && Node.isFunctionTypeNode(node)) {
    const params: AbiParam[] = node.getParameters().map((p) => ({
      name: p.getName(),
      type: readType(p.getTypeNode(), p, 'parameter', typedefs),
    }));
    return {
      kind: 'function-pointer',
      returns: readType(node.getReturnTypeNode(), node, 'return', typedefs),
      params,
    };
  }
  if (Node.isTypeReference(node) && node.getTypeArguments().length === 0) {
    const name = node.getTypeName().getText();
    const spelling = C_VOCABULARY[name];
    if (spelling === 'void' && use !== 'return') {
      throw errorAt(node, `c_void is only allowed as a return type, not as a ${use} type`);
    }
    if (spelling) return { kind: 'builtin', spelling };
    if (typedefs.has(name)) return { kind: 'typedef', name };
  }
  const known = [...Object.keys(C_VOCABULARY), ...typedefs].join(', ');
  throw errorAt(node, `unmapped type '${node.getText()}' for a ${use} (use one of: ${known})`);
}

// Reads one TypeScript type node of the definitions into a model type.
import type { Node, TypeNode } from 'ts-morph';
import { errorAt } from './errors.js';
import { tsNode } from './ts-morph.js';
import type { AbiParam, AbiType } from './types.js';
import { C_VOCABULARY, CONST_POINTER } from './vocabulary.js';

export type TypeUse = 'return' | 'parameter' | 'member';

/** The names a type may refer to: typedefs (handles, enums) and structs (only behind `ConstPointer`). */
export interface KnownTypes {
  readonly typedefs: Set<string>;
  readonly structs: Set<string>;
}

function readConstPointer(node: TypeNode, use: TypeUse, known: KnownTypes): AbiType | undefined {
  if (!tsNode().isTypeReference(node) || node.getTypeName().getText() !== CONST_POINTER) return undefined;
  const [arg, extra] = node.getTypeArguments();
  const to = arg && tsNode().isTypeReference(arg) ? arg.getTypeName().getText() : undefined;
  if (extra || to === undefined || !known.structs.has(to)) {
    throw errorAt(node, `${CONST_POINTER}<...> of a ${use} must name one struct the definitions declare`);
  }
  return { kind: 'const-pointer', to };
}

/** Maps a TypeScript type node to an AbiType, or throws naming the file, line and type. */
export function readType(node: TypeNode | undefined, owner: Node, use: TypeUse, known: KnownTypes): AbiType {
  if (!node) throw errorAt(owner, `missing type annotation (every ${use} needs a C type)`);
  if (use === 'member' && tsNode().isFunctionTypeNode(node)) {
    const params: AbiParam[] = node.getParameters().map((p) => ({
      name: p.getName(),
      type: readType(p.getTypeNode(), p, 'parameter', known),
    }));
    return {
      kind: 'function-pointer',
      returns: readType(node.getReturnTypeNode(), node, 'return', known),
      params,
    };
  }
  const pointer = readConstPointer(node, use, known);
  if (pointer) return pointer;
  if (tsNode().isTypeReference(node) && node.getTypeArguments().length === 0) {
    const name = node.getTypeName().getText();
    const spelling = C_VOCABULARY[name];
    if (spelling === 'void' && use !== 'return') {
      throw errorAt(node, `c_void is only allowed as a return type, not as a ${use} type`);
    }
    if (spelling) return { kind: 'builtin', spelling };
    if (known.typedefs.has(name)) return { kind: 'typedef', name };
  }
  const names = [...Object.keys(C_VOCABULARY), ...known.typedefs, `${CONST_POINTER}<struct>`].join(', ');
  throw errorAt(node, `unmapped type '${node.getText()}' for a ${use} (use one of: ${names})`);
}

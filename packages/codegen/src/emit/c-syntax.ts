// C spelling of model types, declarators, parameter lists and function declarations.
import type { AbiFunction, AbiParam, AbiType } from '../model/types.js';

/** How a type is written in front of a name (`const char*`, `entropic_error_t`). */
export function cType(type: AbiType): string {
  if (type.kind === 'builtin') return type.spelling;
  if (type.kind === 'typedef') return type.name;
  if (type.kind === 'const-pointer') return `const ${type.to}*`;
  throw new Error('a function-pointer type has no stand-alone spelling; use cDeclarator');
}

/** `type name`, or for a function pointer `ret (*name)(params)`. */
export function cDeclarator(type: AbiType, name: string): string {
  if (type.kind === 'function-pointer') return `${cType(type.returns)} (*${name})(${cParams(type.params)})`;
  return `${cType(type)} ${name}`;
}

/** A parameter list; an empty one is `void`, as C requires. */
export function cParams(params: AbiParam[]): string {
  return params.length === 0 ? 'void' : params.map((p) => cDeclarator(p.type, p.name)).join(', ');
}

const MAX_LINE = 100;

/** A function declaration carrying the export macro, wrapped with aligned parameters when long. */
export function cFunctionDeclaration(fn: AbiFunction, exportMacro: string): string {
  const head = `${exportMacro} ${cType(fn.returns)} ${fn.name}(`;
  const single = `${head}${cParams(fn.params)});`;
  if (single.length <= MAX_LINE || fn.params.length < 2) return single;
  const pad = ' '.repeat(head.length);
  const parts = fn.params.map((p) => cDeclarator(p.type, p.name));
  return parts.map((p, i) => (i === 0 ? head : pad) + p + (i === parts.length - 1 ? ');' : ',')).join('\n');
}

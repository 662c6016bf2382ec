// The closed vocabulary of TypeScript aliases that stand for C types.
import type { BuiltinSpelling } from './types.js';

/**
 * The closed vocabulary: TypeScript alias name (declared in the definitions' `ctypes.ts`) → the
 * C type it stands for. Nothing outside this table and the typedefs the definitions declare
 * maps to a C type.
 */
export const C_VOCABULARY: Readonly<Record<string, BuiltinSpelling>> = {
  c_int: 'int',
  c_void: 'void',
  c_char_ptr: 'char*',
  c_const_char_ptr: 'const char*',
  c_void_ptr: 'void*',
  c_double: 'double',
  c_size_t: 'size_t',
};

/** The generic alias for `const T*` (T a struct the definitions declare). */
export const CONST_POINTER = 'ConstPointer';

/** The file of the definitions folder that declares the vocabulary. */
export const VOCABULARY_FILE = 'ctypes.ts';

// The closed vocabulary of C types the ABI definitions may use.
//
// Every type in a definition file is one of the aliases below, an opaque handle made with
// `OpaqueHandle`, a `ConstPointer` to a struct declared in a definition file, an enum declared in a
// definition file, or a function type (for the function-pointer members of a struct). The codegen
// reader knows exactly these spellings; any other TypeScript type stops generation with an error
// naming the file, line and type.

declare const cSpelling: unique symbol;
declare const handleTag: unique symbol;

/** A C type, branded with its spelling so two different C types never mix in TypeScript. */
export type CType<Spelling extends string> = { readonly [cSpelling]: Spelling };

/** `int` */
export type c_int = CType<'int'>;
/** `void` (return type only) */
export type c_void = CType<'void'>;
/** `char*`: a string the callee allocates and the caller owns */
export type c_char_ptr = CType<'char*'>;
/** `const char*`: a borrowed, NUL-terminated string */
export type c_const_char_ptr = CType<'const char*'>;
/** `void*`: untyped memory or caller context */
export type c_void_ptr = CType<'void*'>;
/** `double` */
export type c_double = CType<'double'>;
/** `size_t`: a size in bytes */
export type c_size_t = CType<'size_t'>;

declare const pointee: unique symbol;

/** `const T*`: a borrowed pointer to a struct the definitions declare (`T` is its typedef). */
export type ConstPointer<T> = { readonly [pointee]: T };

/** `typedef struct <Tag>* name;`: a pointer to a struct the other side never sees inside. */
export type OpaqueHandle<Tag extends string> = { readonly [handleTag]: Tag };

/** Describes one generated header. Each definition file that becomes a header exports one as `header`. */
export interface HeaderSpec {
  /** Path below the include directory, as plugin sources write it in `#include <...>`. */
  readonly path: string;
  /** Headers it includes, in order; system headers are written `<name>` as well. */
  readonly includes: readonly string[];
}

/**
 * An export macro: each case applies when all its `when` macros are defined; the last case, with
 * an empty `when`, is the fallback. Cases are tried in order.
 */
export interface ExportMacroSpec {
  readonly cases: readonly { readonly when: readonly string[]; readonly expands: string }[];
}

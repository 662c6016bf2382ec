// The ABI model: one plain-JSON value read from the definitions; every emitter renders from it.

/** Documentation of one item, taken from its JSDoc. */
export interface AbiDoc {
  /** First paragraph. */
  summary: string;
  /** Further paragraphs, each a list of lines. */
  body: string[];
  /** `@param` texts by parameter name, in order. */
  params: { name: string; text: string }[];
  /** `@returns` text. */
  returns?: string;
  /** Named sections from the plain tags (`@ownership`, `@threading`, ...), in order. */
  sections: { tag: string; title: string; text: string }[];
}

/** A C type from the closed vocabulary, or a typedef declared in the definitions. */
export type AbiType =
  | { kind: 'builtin'; spelling: BuiltinSpelling }
  | { kind: 'typedef'; name: string }
  | { kind: 'const-pointer'; to: string }
  | { kind: 'function-pointer'; returns: AbiType; params: AbiParam[] };

export type BuiltinSpelling = 'int' | 'void' | 'char*' | 'const char*' | 'void*' | 'double' | 'size_t';

export interface AbiParam {
  name: string;
  type: AbiType;
}

export interface AbiHandle {
  kind: 'handle';
  name: string;
  /** The struct tag the handle points to (`typedef struct <tag>* <name>`). */
  tag: string;
  doc: AbiDoc;
}

export interface AbiFunction {
  kind: 'function';
  name: string;
  /** An optional entry point (`@optional`): the loader looks it up, a plugin may leave it out. */
  optional?: true;
  returns: AbiType;
  params: AbiParam[];
  doc: AbiDoc;
}

export interface AbiStruct {
  kind: 'struct';
  name: string;
  /**
   * A struct that may grow (`@growable`): its first member is `size_t size`, members are only appended,
   * and its header defines `<NAME>_HAS(p, member)` (see `hasMacroName`).
   */
  growable?: true;
  members: { name: string; type: AbiType; doc: AbiDoc }[];
  doc: AbiDoc;
}

export interface AbiEnum {
  kind: 'enum';
  name: string;
  enumerators: { name: string; value: number; doc: AbiDoc }[];
  doc: AbiDoc;
}

/** `#define NAME value` with an integer value. */
export interface AbiDefine {
  kind: 'define';
  name: string;
  value: number;
  doc: AbiDoc;
}

export interface AbiExportMacro {
  kind: 'export-macro';
  name: string;
  /** Tried in order; a case applies when every macro in `when` is defined; the last has none. */
  cases: { when: string[]; expands: string }[];
  doc: AbiDoc;
}

export type AbiItem = AbiHandle | AbiFunction | AbiStruct | AbiEnum | AbiDefine | AbiExportMacro;

export interface AbiHeader {
  /** Include-relative path, e.g. `entropic/types/error.h`. */
  path: string;
  /** Definition file it was read from, relative to the definitions folder. */
  source: string;
  /** Included headers in order, written as they go inside `<...>`. */
  includes: string[];
  doc: AbiDoc;
  /** Declarations in definition order. */
  items: AbiItem[];
}

export interface AbiModel {
  /** Bumped whenever the shape of this model changes. */
  modelFormat: 1;
  /** Value of the version macro. */
  apiVersion: number;
  /** Name of the version macro. */
  versionMacro: string;
  /** Name of the macro every function declaration carries. */
  exportMacro: string;
  /** Headers sorted by path. */
  headers: AbiHeader[];
  /** Directive type names of the ServerResponse envelope, by index. */
  directiveTypes: string[];
}

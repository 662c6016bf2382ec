// Reads the declarations of one ABI definition file (handles, functions, structs, enums, constants) into model items.
import type {
  EnumDeclaration,
  FunctionDeclaration,
  InterfaceDeclaration,
  Node,
  SourceFile,
  TypeAliasDeclaration,
  VariableStatement,
} from 'ts-morph';
import { errorAt } from './errors.js';
import { readDoc } from './read-doc.js';
import { type KnownTypes, readType } from './read-type.js';
import { tsNode } from './ts-morph.js';
import type { AbiEnum, AbiExportMacro, AbiFunction, AbiHandle, AbiItem, AbiStruct } from './types.js';

/** What one definition file contributes to the model. */
export interface FileContents {
  header?: { path: string; includes: string[]; node: Node };
  items: AbiItem[];
  directiveTypes?: string[];
}

function stringLiteral(node: Node | undefined, what: string, owner: Node): string {
  if (node && (tsNode().isStringLiteral(node) || tsNode().isNoSubstitutionTemplateLiteral(node))) {
    return node.getLiteralValue();
  }
  throw errorAt(node ?? owner, `${what} must be a string literal`);
}

function stringArray(node: Node | undefined, what: string, owner: Node): string[] {
  if (!node || !tsNode().isArrayLiteralExpression(node))
    throw errorAt(node ?? owner, `${what} must be an array literal`);
  return node.getElements().map((e) => stringLiteral(e, `each entry of ${what}`, owner));
}

/** Unwraps `x as const satisfies T` down to the object literal. */
function objectLiteral(node: Node | undefined, what: string, owner: Node) {
  let inner = node;
  while (inner && (tsNode().isSatisfiesExpression(inner) || tsNode().isAsExpression(inner)))
    inner = inner.getExpression();
  if (!inner || !tsNode().isObjectLiteralExpression(inner))
    throw errorAt(node ?? owner, `${what} must be an object literal`);
  return inner;
}

function property(obj: Node, name: string, owner: Node): Node {
  if (!tsNode().isObjectLiteralExpression(obj)) throw errorAt(owner, 'expected an object literal');
  const prop = obj.getProperty(name);
  if (!prop || !tsNode().isPropertyAssignment(prop)) throw errorAt(obj, `missing property '${name}'`);
  return prop.getInitializerOrThrow();
}

export function readHandle(alias: TypeAliasDeclaration): AbiHandle {
  const node = alias.getTypeNode();
  if (node && tsNode().isTypeReference(node) && node.getTypeName().getText() === 'OpaqueHandle') {
    const [arg] = node.getTypeArguments();
    if (arg && tsNode().isLiteralTypeNode(arg)) {
      const tag = stringLiteral(arg.getLiteral(), 'the OpaqueHandle tag', alias);
      return { kind: 'handle', name: alias.getName(), tag, doc: readDoc(alias) };
    }
  }
  throw errorAt(alias, `type alias '${alias.getName()}' must be OpaqueHandle<'struct_tag'>`);
}

export function readFunction(fn: FunctionDeclaration, typedefs: KnownTypes): AbiFunction {
  const name = fn.getName();
  if (!name) throw errorAt(fn, 'a function declaration needs a name');
  if (!fn.hasDeclareKeyword()) throw errorAt(fn, `function '${name}' must be 'declare function' (no body)`);
  const params = fn.getParameters().map((p) => ({
    name: p.getName(),
    type: readType(p.getTypeNode(), p, 'parameter', typedefs),
  }));
  const doc = readDoc(fn);
  return {
    kind: 'function',
    name,
    ...(doc.sections.some((s) => s.tag === 'optional') ? { optional: true as const } : {}),
    returns: readType(fn.getReturnTypeNode(), fn, 'return', typedefs),
    params,
    doc,
  };
}

export function readStruct(decl: InterfaceDeclaration, typedefs: KnownTypes): AbiStruct {
  if (decl.getMethods().length > 0 || decl.getExtends().length > 0) {
    throw errorAt(decl, `interface '${decl.getName()}' may only hold property members (use function types)`);
  }
  const members = decl.getProperties().map((p) => {
    if (p.hasQuestionToken()) throw errorAt(p, `struct member '${p.getName()}' cannot be optional`);
    return { name: p.getName(), type: readType(p.getTypeNode(), p, 'member', typedefs), doc: readDoc(p) };
  });
  const doc = readDoc(decl);
  if (!doc.sections.some((s) => s.tag === 'growable'))
    return { kind: 'struct', name: decl.getName(), members, doc };
  const [first] = members;
  if (first?.name !== 'size' || first.type.kind !== 'builtin' || first.type.spelling !== 'size_t') {
    throw errorAt(
      decl,
      `growable struct '${decl.getName()}' must start with 'size: c_size_t' (how a plugin learns which members the host filled)`,
    );
  }
  return { kind: 'struct', name: decl.getName(), growable: true, members, doc };
}

/** The range of C `int`, which every enumerator must fit so the enum keeps the size of an int. */
const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

export function readEnum(decl: EnumDeclaration): AbiEnum {
  let next = 0;
  const enumerators = decl.getMembers().map((m) => {
    const init = m.getInitializer();
    const what = `enumerator '${m.getName()}' of ${decl.getName()}`;
    if (init && !tsNode().isNumericLiteral(init)) throw errorAt(m, `${what} needs a number literal value`);
    const value = init ? Number(init.getLiteralValue()) : next;
    const shown = init ? init.getText() : `${value} (one after the previous enumerator)`;
    if (!Number.isInteger(value))
      throw errorAt(m, `${what} = ${shown} is not an integer; C enumerators are whole numbers`);
    if (value < INT_MIN || value > INT_MAX) {
      throw errorAt(
        m,
        `${what} = ${shown} is outside C int (${INT_MIN}..${INT_MAX}); a larger value would change the size of ${decl.getName()}`,
      );
    }
    next = value + 1;
    return { name: m.getName(), value, doc: readDoc(m) };
  });
  return { kind: 'enum', name: decl.getName(), enumerators, doc: readDoc(decl) };
}

function readExportMacro(name: string, init: Node, stmt: VariableStatement): AbiExportMacro {
  const obj = objectLiteral(init, `export macro '${name}'`, stmt);
  const casesNode = property(obj, 'cases', stmt);
  if (!tsNode().isArrayLiteralExpression(casesNode))
    throw errorAt(casesNode, "'cases' must be an array literal");
  const cases = casesNode.getElements().map((element) => {
    const c = objectLiteral(element, 'each case', stmt);
    return {
      when: stringArray(property(c, 'when', stmt), "'when'", stmt),
      expands: stringLiteral(property(c, 'expands', stmt), "'expands'", stmt),
    };
  });
  if (cases.length === 0 || cases[cases.length - 1]?.when.length !== 0) {
    throw errorAt(casesNode, `export macro '${name}' must end with a fallback case whose 'when' is empty`);
  }
  return { kind: 'export-macro', name, cases, doc: readDoc(stmt) };
}

function readHeaderSpec(init: Node, stmt: VariableStatement): FileContents['header'] {
  const obj = objectLiteral(init, "'header'", stmt);
  return {
    path: stringLiteral(property(obj, 'path', stmt), "'header.path'", stmt),
    includes: stringArray(property(obj, 'includes', stmt), "'header.includes'", stmt),
    node: stmt,
  };
}

/** Reads one variable statement: the header spec, an export macro, a define or the directive list. */
export function readVariable(stmt: VariableStatement, out: FileContents): void {
  const [decl, extra] = stmt.getDeclarations();
  if (!decl || extra) throw errorAt(stmt, 'declare one constant per statement');
  const name = decl.getName();
  const init = decl.getInitializer();
  const typeNode = decl.getTypeNode();
  if (name === 'header' && init) {
    out.header = readHeaderSpec(init, stmt);
  } else if (init) {
    out.items.push(readExportMacro(name, init, stmt));
  } else if (
    typeNode &&
    tsNode().isLiteralTypeNode(typeNode) &&
    tsNode().isNumericLiteral(typeNode.getLiteral())
  ) {
    const value = Number(typeNode.getLiteral().getText());
    out.items.push({ kind: 'define', name, value, doc: readDoc(stmt) });
  } else if (name === 'DIRECTIVE_TYPES' && typeNode && tsNode().isTupleTypeNode(typeNode)) {
    out.directiveTypes = typeNode.getElements().map((e) => {
      if (!tsNode().isLiteralTypeNode(e)) throw errorAt(e, 'each directive type must be a string literal');
      return stringLiteral(e.getLiteral(), 'a directive type', stmt);
    });
  } else {
    throw errorAt(
      stmt,
      `constant '${name}' is neither a header spec, an export macro, a numeric define nor DIRECTIVE_TYPES`,
    );
  }
}

/** Reads every declaration of one definition file, in order. */
export function readFile(file: SourceFile, typedefs: KnownTypes): FileContents {
  const out: FileContents = { items: [] };
  for (const stmt of file.getStatements()) {
    if (tsNode().isImportDeclaration(stmt)) continue;
    if (tsNode().isTypeAliasDeclaration(stmt)) out.items.push(readHandle(stmt));
    else if (tsNode().isFunctionDeclaration(stmt)) out.items.push(readFunction(stmt, typedefs));
    else if (tsNode().isInterfaceDeclaration(stmt)) out.items.push(readStruct(stmt, typedefs));
    else if (tsNode().isEnumDeclaration(stmt)) out.items.push(readEnum(stmt));
    else if (tsNode().isVariableStatement(stmt)) readVariable(stmt, out);
    else throw errorAt(stmt, `unsupported declaration (${stmt.getKindName()}) in an ABI definition file`);
  }
  return out;
}

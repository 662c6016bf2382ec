// The errors of @entropic-mcp/codegen: the base `CodegenError` with its stable `code`, a mistake in the
// definitions (named with file and line) and the one usage error of every command.
import type { Node } from 'ts-morph';

/**
 * The base of every error this package throws on purpose. `code` says which error it is and is stable across
 * releases: match on it, never on the message.
 */
export class CodegenError<C extends string = string> extends Error {
  override readonly name: string = 'CodegenError';
  readonly code: C;

  constructor(code: C, message: string) {
    super(message);
    this.code = code;
  }
}

/** A definition the reader cannot turn into the model; the message names the file and line. */
export class AbiDefinitionError extends CodegenError<'ABI_DEFINITION_INVALID'> {
  override readonly name = 'AbiDefinitionError';
  readonly file: string;
  readonly line: number;

  constructor(file: string, line: number, message: string) {
    super('ABI_DEFINITION_INVALID', `${file}:${line}: ${message}`);
    this.file = file;
    this.line = line;
  }
}

/** Bad command-line input (an unknown option, ref or tarball); the CLI prints it with a `--help` hint, exit 2. */
export class UsageError extends CodegenError<'ABI_USAGE'> {
  override readonly name = 'UsageError';

  constructor(message: string) {
    super('ABI_USAGE', message);
  }
}

/** Builds an error located at `node`, with the file path as given to the reader. */
export function errorAt(node: Node, message: string): AbiDefinitionError {
  return new AbiDefinitionError(node.getSourceFile().getFilePath(), node.getStartLineNumber(), message);
}

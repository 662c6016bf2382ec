// AbiDefinitionError: a mistake in the definitions, named with file and line.
import type { Node } from 'ts-morph';

/** A definition the reader cannot turn into the model; the message names the file and line. */
export class AbiDefinitionError extends Error {
  readonly file: string;
  readonly line: number;

  constructor(file: string, line: number, message: string) {
    super(`${file}:${line}: ${message}`);
    this.name = 'AbiDefinitionError';
    this.file = file;
    this.line = line;
  }
}

/** Builds an error located at `node`, with the file path as given to the reader. */
export function errorAt(node: Node, message: string): AbiDefinitionError {
  return new AbiDefinitionError(node.getSourceFile().getFilePath(), node.getStartLineNumber(), message);
}

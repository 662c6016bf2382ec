/** What a schema validator returns: the first problem found, as a JSON pointer and a message. */

export interface SchemaIssue {
  /** JSON pointer into the validated value ('' is the value itself). */
  pointer: string;
  message: string;
}

/** Validates one value; returns undefined when it conforms, otherwise the first problem. */
export type Validator = (value: unknown) => SchemaIssue | undefined;

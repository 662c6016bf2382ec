/** Depth and element caps on a parsed message, checked without recursion. */

export interface JsonLimits {
  maxJsonDepth: number;
  maxJsonElements: number;
}

/** Returns a description of the first cap `value` breaks, or undefined when it is within both. */
export function checkJsonLimits(value: unknown, limits: JsonLimits): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const stack: unknown[] = [value];
  const depths: number[] = [1];
  let elements = 0;
  while (stack.length > 0) {
    const node = stack.pop();
    const depth = depths.pop() as number;
    if (depth > limits.maxJsonDepth) return `JSON nesting exceeds maxJsonDepth (${limits.maxJsonDepth})`;
    if (Array.isArray(node)) {
      elements += node.length;
      for (let i = 0; i < node.length; i++) {
        const child = node[i];
        if (typeof child === 'object' && child !== null) {
          stack.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in node as Record<string, unknown>) {
        elements++;
        const child = (node as Record<string, unknown>)[key];
        if (typeof child === 'object' && child !== null) {
          stack.push(child);
          depths.push(depth + 1);
        }
      }
    }
    if (elements > limits.maxJsonElements) {
      return `JSON message has more than maxJsonElements (${limits.maxJsonElements}) values`;
    }
  }
  return undefined;
}

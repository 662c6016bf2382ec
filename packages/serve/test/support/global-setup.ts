/**
 * Global setup of the serve integration tests: compiles the C test plugins (the loader's fixtures) and the example
 * plugins once, before any file runs, so that no two test files run make on the same outputs at once.
 */
import { buildFixtures } from '@entropic-mcp/test-kit/c-fixtures';
import { buildExamples } from '@entropic-mcp/test-kit/examples-build';

export default function setup(): void {
  buildFixtures();
  buildExamples();
}

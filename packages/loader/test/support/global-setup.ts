/**
 * Global setup of the loader's integration tests: compiles the C test fixtures (test/fixtures/build) and the
 * example plugins once, before any file runs, so that no two test files run make on the same outputs at once.
 */
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildExamples } from './examples-build.js';

export default function setup(): void {
  const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
  execFileSync('make', ['-s', '-C', fixtures], { stdio: 'inherit' });
  buildExamples();
}

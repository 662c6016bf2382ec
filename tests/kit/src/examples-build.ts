/** Builds the example plugins (examples/plugins) once, with the loader's header lookup standing in for entropic-abi. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './serve-process.js';

export const examplesDir = join(REPO_ROOT, 'examples', 'plugins');

export function buildExamples(): void {
  const abi = `${process.execPath} ${join(REPO_ROOT, 'packages', 'loader', 'scripts', 'abi-dirs.mjs')}`;
  execFileSync('make', ['-s', '-C', examplesDir, `ENTROPIC_ABI=${abi}`], { stdio: 'inherit' });
}

export function example(name: string, file = name): string {
  return join(examplesDir, name, 'build', `${file}.so`);
}

/** Builds the example plugins (examples/plugins) once, with this package's header lookup standing in for entropic-abi. */
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const examplesDir = join(here, '..', '..', '..', '..', 'examples', 'plugins');

export function buildExamples(): void {
  const abi = `${process.execPath} ${join(here, '..', '..', 'scripts', 'abi-dirs.mjs')}`;
  execFileSync('make', ['-s', '-C', examplesDir, `ENTROPIC_ABI=${abi}`], { stdio: 'inherit' });
}

export function example(name: string, file = name): string {
  return join(examplesDir, name, 'build', `${file}.so`);
}

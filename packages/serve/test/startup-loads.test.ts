// What `entropic-mcp serve` loads before it reads a config: not yaml, which only a config file or `--sandbox`
// needs, so that a serve given only flags starts without it.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SERVE_COMMAND = fileURLToPath(new URL('../dist/cli/serve.js', import.meta.url));
const CONFIG_PARSE = fileURLToPath(new URL('../dist/config/sandbox.js', import.meta.url));

/** Whether a Node process that runs `script` (an ES module) then holds yaml among its CommonJS modules. */
function yamlLoadedAfter(script: string): boolean {
  const out = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `${script}
       const { createRequire } = await import('node:module');
       const cache = createRequire(import.meta.url)('node:module')._cache;
       console.log(Object.keys(cache).some((file) => /[\\\\/]yaml[\\\\/]/.test(file)));`,
    ],
    { encoding: 'utf8' },
  );
  return out.trim() === 'true';
}

describe('yaml at serve start-up', () => {
  it('is not loaded by importing the serve command', () => {
    expect(yamlLoadedAfter(`await import(${JSON.stringify(SERVE_COMMAND)});`)).toBe(false);
  });

  it('is loaded once a YAML mapping is read (the check sees it)', () => {
    const read = `const { readSandboxFlag } = await import(${JSON.stringify(CONFIG_PARSE)});
      readSandboxFlag('{read: [/tmp]}', '/tmp');`;
    expect(yamlLoadedAfter(read)).toBe(true);
  });
});

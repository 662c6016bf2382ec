// What importing the HTTP entry point loads: not jose, which only a JWT bearer check needs (loaded on the first
// token checked against a key set), so that a server without JWT auth starts without it.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@entropic-mcp/test-kit/temp';
import { afterAll, describe, expect, it } from 'vitest';

const RECORD = fileURLToPath(new URL('fixtures/startup/record-loads.mjs', import.meta.url));
const HTTP_ENTRY = fileURLToPath(new URL('../dist/http/index.js', import.meta.url));
const AUTH_ENTRY = fileURLToPath(new URL('../dist/auth/index.js', import.meta.url));
const dir = tempDir('startup-loads');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The module URLs a Node process loads while it runs `script` (an ES module). */
function loadsOf(name: string, script: string): string[] {
  const file = join(dir, `${name}.txt`);
  rmSync(file, { force: true });
  execFileSync(process.execPath, ['--import', RECORD, '--input-type=module', '-e', script], {
    env: { ...process.env, RECORD_LOADS: file },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return readFileSync(file, 'utf8').split('\n');
}

describe('importing @entropic-mcp/server/http', () => {
  it('loads no jose until a JWT is checked against a key set', () => {
    const imported = loadsOf('import', `await import(${JSON.stringify(HTTP_ENTRY)});`);
    expect(imported.some((url) => url.includes('/server/dist/http/'))).toBe(true);
    expect(imported.filter((url) => url.includes('/jose/'))).toEqual([]);
  });

  it('loads jose once a token is checked against a key set (the record sees it)', () => {
    const checked = loadsOf(
      'verify',
      `const { createBearerVerifier } = await import(${JSON.stringify(AUTH_ENTRY)});
       const verifier = createBearerVerifier({ jwks: { keys: [] }, issuer: 'i', audience: 'a' });
       const verdict = await verifier.verify('Bearer aaaa.bbbb.cccc');
       if (verdict.ok) process.exit(3);`,
    );
    expect(checked.some((url) => url.includes('/jose/'))).toBe(true);
  });
});

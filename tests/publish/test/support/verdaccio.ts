// A throwaway Verdaccio registry for the release test: temporary storage, one user, no uplinks (nothing is
// proxied to another registry), on a free port of 127.0.0.1; and what it holds of a package.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from '@entropic-mcp/test-kit/ports';
import { waitFor } from '@entropic-mcp/test-kit/wait';

export interface Registry {
  readonly url: string;
  /** The `//host:port/` prefix .npmrc keys a token with. */
  readonly authKey: string;
  readonly token: string;
  stop(): Promise<void>;
}

/** One published version's manifest, as the registry serves it. */
export interface Manifest {
  version: string;
  dependencies?: Record<string, string>;
  bin?: Record<string, string>;
  dist: { tarball: string };
}

/** What the registry holds of a package: its dist-tags and each version's manifest. */
export interface Packument {
  'dist-tags': { latest: string };
  versions: Record<string, Manifest>;
}

export async function packument(registry: Registry, name: string): Promise<Packument> {
  const url = `${registry.url}${encodeURIComponent(name)}`;
  // The registry may close an idle kept-alive socket just as fetch reuses it: one retry on a fresh one.
  const answer = await fetch(url).catch(() => fetch(url));
  if (answer.status !== 200) throw new Error(`the registry answered ${answer.status} for ${name}`);
  return (await answer.json()) as Packument;
}

export async function startRegistry(): Promise<Registry> {
  const dir = mkdtempSync(join(tmpdir(), 'entropic-verdaccio-'));
  const config = join(dir, 'config.yaml');
  writeFileSync(
    config,
    [
      `storage: ${join(dir, 'storage')}`,
      'auth:',
      '  htpasswd:',
      `    file: ${join(dir, 'htpasswd')}`,
      '    max_users: 10',
      'uplinks: {}',
      'packages:',
      "  '**':",
      '    access: $all',
      '    publish: $authenticated',
      'log: { type: stdout, format: pretty, level: warn }',
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const bin = join(
    dirname(createRequire(import.meta.url).resolve('verdaccio/package.json')),
    'bin',
    'verdaccio',
  );
  const child = spawn(process.execPath, [bin, '--config', config, '--listen', `127.0.0.1:${port}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  const url = `http://127.0.0.1:${port}/`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`verdaccio exited with ${child.exitCode}:\n${output}`);
        return (await fetch(`${url}-/ping`).catch(() => undefined))?.ok === true;
      },
      120_000,
      `verdaccio to answer ${url}-/ping`,
    );
    const answer = await fetch(`${url}-/user/org.couchdb.user:publisher`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'publisher', password: 'publish-check-password' }),
    });
    const body = (await answer.json()) as { token?: string };
    if (!answer.ok || body.token === undefined)
      throw new Error(`verdaccio refused the user: ${answer.status} ${JSON.stringify(body)}`);
    return { url, authKey: `//127.0.0.1:${port}/`, token: body.token, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

// `entropic-mcp serve` with sandboxes: per plugin in the YAML config and as a --sandbox default, shown in the banner,
// enforced on what the hostile plugin tries through the official SDK client, its context log still reaching the
// client, a host that runs out of CPU time answered with a clear error and restarted, and another client's calls
// answered throughout. A sandbox with --isolation none, or a bad one, is refused before anything starts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { type Arena, HOSTILE, listening, makeArena, type Port } from '@entropic-mcp/test-kit/sandbox-arena';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectHttp,
  connectStdio,
  type HttpServer,
  runServe,
  startHttp,
  tempDir,
  textOf,
} from './support/serve-helpers.js';

let arena: Arena;
let port: Port;
beforeAll(async () => {
  arena = makeArena();
  port = await listening();
});
afterAll(async () => {
  await port?.close();
  arena?.remove();
});

describe('serve with a sandbox per plugin in the config and a --sandbox default', () => {
  let server: HttpServer;
  beforeAll(async () => {
    const config = join(tempDir('serve-sandbox'), 'entropic.yaml');
    writeFileSync(
      config,
      [
        'mcp:',
        '  plugins:',
        `    - path: ${HOSTILE.context()}`,
        `      sandbox: { read: [${arena.data}], connect: [${port.port}], cpu_seconds: 1 }`,
        `    - path: ${HOSTILE.plain()}`, // gets the --sandbox default
        `    - path: ${fixture('crashy')}`,
        '      sandbox: false',
        '',
      ].join('\n'),
    );
    server = await startHttp(['--config', config, '--sandbox', `{write: [${arena.out}], memory_mb: 200}`]);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('shows each plugin sandbox in the banner', () => {
    const banner = server.stderr();
    expect(banner).toContain(
      `sandbox: read ${arena.data}; write none; connect ${port.port}; no exec; no new processes; cpu 1 s`,
    );
    expect(banner).toContain(
      `sandbox: read none; write ${arena.out}; connect none; no exec; no new processes; memory 200 MiB`,
    );
    expect(banner).toMatch(/crashy +\d+ tools? +isolated +\S+crashy\.so\n +sandbox: none\n/);
  });

  it('enforces them on what the client asks the plugin to do, and its context log reaches the client', async () => {
    const client = await connectHttp(server.url);
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(n.params);
    });
    const call = async (name: string, args: Record<string, unknown>) =>
      textOf(await client.callTool({ name: `${name}.try`, arguments: args }));
    try {
      await client.setLoggingLevel('info');
      expect(await call('hostile-context', { what: 'read', path: arena.secret })).toBe(
        `refused EACCES ${arena.secret}`,
      );
      expect(logs).toContainEqual({
        level: 'info',
        logger: 'hostile',
        data: { outcome: `refused EACCES ${arena.secret}` },
      });
      expect(await call('hostile-context', { what: 'read', path: arena.file })).toBe('ok the public text');
      expect(await call('hostile-context', { what: 'connect', n: port.port })).toBe('ok connect');
      expect(await call('hostile-context', { what: 'exec' })).toBe('refused EPERM execve');
      expect(await call('hostile', { what: 'write', path: `${arena.out}/x.txt` })).toBe(
        `ok ${arena.out}/x.txt`,
      );
      expect(await call('hostile', { what: 'read', path: arena.file })).toBe(`refused EACCES ${arena.file}`);
    } finally {
      await client.close();
    }
  });

  it('answers a call whose host ran out of CPU time with an error saying so, restarts it, and serves another client throughout', async () => {
    const hostile = await connectHttp(server.url);
    const other = await connectHttp(server.url);
    try {
      let spun = false;
      const spin = hostile
        .callTool({ name: 'hostile-context.try', arguments: { what: 'spin', n: 30 } })
        .finally(() => {
          spun = true;
        });
      const answers: string[] = [];
      while (!spun) {
        const echoed = await other.callTool({ name: 'crashy.echo', arguments: { text: 'still here' } });
        answers.push(textOf(echoed));
      }
      const result = (await spin) as { isError?: boolean };
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(
        'was killed by SIGXCPU (its CPU time ran out: the sandbox cpuSeconds limit)',
      );
      expect(answers.length).toBeGreaterThan(0);
      expect(new Set(answers)).toEqual(new Set(['{"text":"still here"}']));
      const next = await hostile.callTool({ name: 'hostile-context.try', arguments: { what: 'limits' } });
      expect(textOf(next)).toMatch(/^cpu 1 /);
    } finally {
      await hostile.close();
      await other.close();
    }
  }, 120_000);
});

describe('serve --sandbox over stdio, and --sandbox-audit', () => {
  it('applies the default to a --plugin', async () => {
    const server = await connectStdio(['--plugin', HOSTILE.plain(), '--sandbox', `{read: [${arena.data}]}`]);
    try {
      const result = await server.client.callTool({
        name: 'hostile.try',
        arguments: { what: 'read', path: arena.secret },
      });
      expect(textOf(result)).toBe(`refused EACCES ${arena.secret}`);
    } finally {
      await server.close();
    }
  });

  it('--sandbox-audit logs what the plugin does instead of refusing it, and says so at start-up', async () => {
    const server = await connectStdio(['--plugin', HOSTILE.plain(), '--sandbox-audit']);
    try {
      const result = await server.client.callTool({ name: 'hostile.try', arguments: { what: 'udp' } });
      expect(textOf(result)).toBe('ok udp');
      expect(server.stderr()).toContain(
        'sandbox: read none; write none; connect none; no exec; no new processes (audit mode)',
      );
      expect(server.stderr()).toContain('[ENTROPIC_SANDBOX_AUDIT]');
      await expect.poll(() => server.stderr(), { timeout: 30_000 }).toMatch(/sandbox audit: socket\(0x2, /);
    } finally {
      await server.close();
    }
  });
});

describe('serve refuses a sandbox it cannot apply as asked', () => {
  it('with --isolation none, naming the plugin', async () => {
    const r = await runServe(['--plugin', HOSTILE.plain(), '--isolation', 'none', '--sandbox', '{}']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${HOSTILE.plain()}: a sandbox needs isolation process (the in-process mode cannot be sandboxed)`,
    );
  });

  it('a config sandbox with an unknown key, on its line', async () => {
    const config = join(tempDir('serve-sandbox-bad'), 'entropic.yaml');
    writeFileSync(
      config,
      `mcp:\n  plugins:\n    - path: ${HOSTILE.plain()}\n      sandbox:\n        memory: 5\n`,
    );
    const r = await runServe(['--config', config]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      `${config}:5: mcp.plugins[0].sandbox has an unknown key "memory"; did you mean \`memory_mb\`?`,
    );
  });

  it('a --sandbox that names a host instead of a port', async () => {
    const r = await runServe(['--plugin', HOSTILE.plain(), '--sandbox', '{connect: ["db:5432"]}']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--sandbox.connect[0] must be a TCP port number 0-65535, got "db:5432"');
  });
});

/**
 * `serve --log-format json` with in-process plugins: what they write to fd 2 (and to fd 1, which then points at
 * fd 2, over stdio and HTTP alike) comes out as JSON log lines naming the plugin, with the secrets serve was
 * given masked, as an isolated host's stderr does. The relay that does it is a process of its own, so the last words of a
 * plugin that aborts serve still come out, as JSON and masked, and the relay ends with serve.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import {
  alive,
  childPids,
  connectStdio,
  newClient,
  startHttp,
  tempDir,
  textOf,
  waitFor,
} from './support/serve-helpers.js';

type LogRecord = Record<string, unknown>;

/** Every non-empty line of `text` as JSON (a line that is not JSON fails the test, naming it). */
function records(text: string): LogRecord[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as LogRecord;
      } catch {
        throw new Error(`not a JSON log line: ${line}`);
      }
    });
}

describe('serve --log-format json --isolation none: the plugins write to fd 2', () => {
  it('over HTTP: their lines become JSON log lines with secrets masked, the last ones before an abort too', async () => {
    const dir = tempDir('inprocess-stderr');
    const token = `tok${randomBytes(16).toString('hex')}`;
    const stateKey = `key${randomBytes(20).toString('hex')}`;
    writeFileSync(join(dir, 'tokens'), `${token}\n`);
    writeFileSync(
      join(dir, 'serve.yaml'),
      `mcp:\n  request_state_key: ${stateKey}\n  plugins:\n    - { path: ${fixture('chatty')}, isolation: none }\n`,
    );
    const server = await startHttp(
      ['--config', join(dir, 'serve.yaml'), '--auth-token-file', join(dir, 'tokens'), '--log-format', 'json'],
      dir,
    );
    const closed = new Promise((resolve) => server.child.once('close', resolve));
    const [relay] = childPids(server.child.pid as number);
    expect(relay).toBeDefined();
    const client = newClient();
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const planted = { token, stateKey };
    expect(textOf(await client.callTool({ name: 'chatty.say', arguments: planted }))).toBe('said');
    // blurt writes its arguments to stderr, then aborts: serve goes down with it (in-process).
    await expect(client.callTool({ name: 'chatty.blurt', arguments: planted })).rejects.toThrow();
    await closed; // serve and the relay have both let go of stderr
    expect(server.child.signalCode).toBe('SIGABRT');

    const text = server.stderr();
    for (const secret of Object.values(planted)) expect(text).not.toContain(secret);
    const all = records(text);
    const said = all.find((r) => String(r.msg).startsWith('chatty: say got'));
    expect(said).toMatchObject({ plugin: 'chatty.so', stream: 'stderr', level: 'info' });
    expect(String(said?.msg)).toContain('[REDACTED]');
    const last = all.find((r) => String(r.msg).startsWith('chatty: blurt got'));
    expect(last).toMatchObject({ plugin: 'chatty.so', stream: 'stderr' });
    // serve's own lines are still its own, not taken for a plugin's.
    expect(all.find((r) => String(r.msg).includes('listening on'))).not.toHaveProperty('plugin');
    await waitFor(() => !alive(relay as number), 10_000, 'the relay to end');
  }, 60_000);

  it('a relay that is killed is replaced, and the lines after it are still JSON and masked', async () => {
    const dir = tempDir('inprocess-stderr-kill');
    const token = `tok${randomBytes(16).toString('hex')}`;
    writeFileSync(join(dir, 'tokens'), `${token}\n`);
    const server = await startHttp([
      '--plugin',
      fixture('chatty'),
      '--isolation',
      'none',
      '--auth-token-file',
      join(dir, 'tokens'),
      '--log-format',
      'json',
    ]);
    const serve = server.child.pid as number;
    const [first] = childPids(serve);
    process.kill(first as number, 'SIGKILL');
    // Once serve says so, the new relay has the secrets and fd 2 (until then, what the plugin writes is lost).
    await waitFor(() => server.stderr().includes('a new one took its place'), 20_000, 'a new relay');
    expect(childPids(serve)).not.toContain(first);
    const client = newClient();
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      expect(textOf(await client.callTool({ name: 'chatty.say', arguments: { token } }))).toBe('said');
      await waitFor(() => server.stderr().includes('chatty: say got'), 10_000, "chatty's line");
    } finally {
      await client.close();
      await server.stop();
    }
    expect(server.stderr()).not.toContain(token);
    const all = records(server.stderr());
    expect(all.find((r) => String(r.msg).startsWith('chatty: say got'))).toMatchObject({
      plugin: 'chatty.so',
    });
    expect(all.some((r) => r.level === 'warn' && /a new one took its place/.test(String(r.msg)))).toBe(true);
  }, 60_000);

  it('over HTTP: what they print to stdout too, and nothing of theirs reaches stdout, in either log format', async () => {
    for (const format of ['json', 'text']) {
      const server = await startHttp([
        '--plugin',
        fixture('noisy'),
        '--isolation',
        'none',
        '--log-format',
        format,
      ]);
      const client = newClient();
      try {
        await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
        const answer = await client.callTool({ name: 'noisy.echo', arguments: { n: 1 } });
        expect(answer.isError).toBeFalsy();
        await waitFor(() => /noisy: .*forged/.test(server.stderr()), 10_000, "noisy's stdout line on stderr");
      } finally {
        await client.close();
        await server.stop();
      }
      expect(server.stdout()).toBe('');
      if (format === 'text') {
        expect(server.stderr()).toContain('noisy: hello from create');
        continue;
      }
      const all = records(server.stderr());
      expect(all).toContainEqual(
        expect.objectContaining({ msg: 'noisy: hello from create', plugin: 'noisy.so' }),
      );
      expect(all).toContainEqual(
        expect.objectContaining({ msg: expect.stringMatching(/^noisy: .*forged/), plugin: 'noisy.so' }),
      );
    }
  }, 60_000);

  it('over stdio: what they print to stdout too, naming every in-process plugin (fd 2 is shared)', async () => {
    const server = await connectStdio([
      '--plugin',
      fixture('noisy'),
      '--plugin',
      fixture('chatty'),
      '--isolation',
      'none',
      '--log-format',
      'json',
    ]);
    try {
      const answer = await server.client.callTool({ name: 'noisy.echo', arguments: { n: 1 } });
      expect(answer.isError).toBeFalsy();
      await server.client.callTool({ name: 'chatty.say', arguments: { word: 'hello' } });
      await waitFor(() => server.stderr().includes('chatty: say got'), 10_000, "chatty's line");
    } finally {
      await server.close();
    }
    const all = records(server.stderr());
    const plugin = 'noisy.so, chatty.so';
    expect(all).toContainEqual(expect.objectContaining({ msg: 'noisy: hello from create', plugin }));
    expect(all).toContainEqual(
      expect.objectContaining({ msg: expect.stringMatching(/^noisy: .*forged/), plugin }),
    );
    expect(all).toContainEqual(
      expect.objectContaining({ msg: 'chatty: say got {"word":"hello"}', plugin, stream: 'stderr' }),
    );
  }, 60_000);
});

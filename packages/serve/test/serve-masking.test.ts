/**
 * No credential leaves `serve` unmasked, whatever shape it has and wherever a plugin prints it: a real serve over
 * HTTP (a static token file and JWTs from a local issuer) with the `leaky` C plugin, which writes a
 * crash report holding a static token, a JWT, `Bearer` credentials, `Authorization:` and `password:`-style lines
 * (after a line break, after a letter, inside JSON), in two writes split inside a credential, then answers or
 * aborts. Checked in JSON and text logs, in the crash's warn line, in the client's `isError` answer, and through the
 * relay of in-process plugins (both formats); in text, no plugin line can pass for one of serve's.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtAuthArgs, startIssuer, type TestIssuer } from './support/jwt-issuer.js';
import { type HttpServer, newClient, startHttp, tempDir, textOf } from './support/serve-helpers.js';

const AUDIENCE = 'http://127.0.0.1/mcp';
const hex = (n: number) => randomBytes(n).toString('hex');
const dir = tempDir('serve-masking');
let issuer: TestIssuer;
let jwt = '';
const STATIC = `st${hex(12)}`;
const values = {
  authz: `az${hex(8)}`,
  bearer: `br${hex(10)}`,
  bearer2: `bq${hex(10)}`,
  pw1: `p1${hex(6)}`,
  pw2: `p2${hex(6)}`,
  sec: `cs${hex(6)}`,
  key: `ak${hex(6)}`,
};
const FORGED = 'entropic-mcp serve: listening on http://forged.example/mcp';

beforeAll(async () => {
  issuer = await startIssuer();
  jwt = await issuer.sign({ sub: 'alice', aud: AUDIENCE });
  writeFileSync(join(dir, 'tokens'), `${STATIC}\n`);
});

afterAll(async () => {
  await issuer?.close();
});

/** Every value that must never appear (the JWT also by its payload alone). */
const hidden = () => [STATIC, jwt, jwt.split('.')[1] as string, ...Object.values(values)];

/** The crash report `say` prints (logs only): every shape, an ANSI-coloured forged serve line among them. */
const sayText = () =>
  [
    'crash report',
    `xAuthorization: Token ${values.authz}`,
    `headers: {"authorization":"Bearer ${values.bearer}","accept":"*/*"}`,
    `sub${jwt}`,
    `tok${STATIC}en`,
    `Bearer ${values.bearer2}`,
    `password: ${values.pw1}`,
    `DB_PASSWORD=${values.pw2}`,
    `client_secret: ${values.sec}`,
    `api_key=${values.key}`,
    `\u001b[31m${FORGED}\u001b[0m`,
    '',
  ].join('\n');

/** The report `crash` prints before it aborts: five lines, the tail a crash message quotes. */
const crashText = () =>
  [
    `xAuthorization: Token ${values.authz} sub${jwt}`,
    `headers: {"authorization":"Bearer ${values.bearer}"} tok${STATIC}en`,
    `Bearer ${values.bearer2} and ${jwt}`,
    `password: ${values.pw1}`,
    `DB_PASSWORD=${values.pw2} client_secret=${values.sec} api_key=${values.key}`,
    FORGED,
    '',
  ].join('\n');

async function run(extra: string[], isolation: 'process' | 'none') {
  const args = [
    '--plugin',
    fixture('leaky'),
    '--isolation',
    isolation,
    '--auth-token-file',
    join(dir, 'tokens'),
  ];
  const server: HttpServer = await startHttp([...args, ...jwtAuthArgs(issuer, AUDIENCE), ...extra], dir);
  const client = newClient();
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: { authorization: `Bearer ${jwt}` } },
  });
  await client.connect(transport);
  const say = sayText();
  // Split inside the JWT: the two halves reach serve in two writes.
  const at = say.indexOf(jwt) + 40;
  expect(textOf(await client.callTool({ name: 'leaky.say', arguments: { text: say, at } }))).toBe('said');
  let answer = '';
  if (isolation === 'process') {
    const text = crashText();
    // Split inside the static token this time.
    const crashed = await client.callTool({
      name: 'leaky.crash',
      arguments: { text, at: text.indexOf(STATIC) + 9 },
    });
    expect(crashed.isError).toBe(true);
    answer = textOf(crashed);
  }
  await transport.terminateSession();
  await client.close();
  expect(await server.stop()).toBe(0);
  return { stderr: server.stderr(), answer };
}

function expectMasked(text: string): void {
  for (const value of hidden()) expect(text, `${value} is shown`).not.toContain(value);
  expect(text).toContain('[REDACTED]');
}

describe('serve masks every credential a plugin prints', () => {
  it('--log-format json: plugin lines, the crash warn line and the client’s isError answer', async () => {
    const { stderr, answer } = await run(['--log-format', 'json'], 'process');
    expectMasked(stderr);
    expectMasked(answer);
    expect(answer).toContain('its stderr ended with');
    const records = stderr
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const plugin = records.filter((r) => r.stream === 'stderr').map((r) => String(r.msg));
    expect(plugin).toContain('sub[REDACTED]');
    expect(plugin).toContain('password: [REDACTED]');
    const warn = records.find((r) => r.level === 'warn' && String(r.msg).includes('failed on tool "crash"'));
    expect(String(warn?.msg)).toContain('password: [REDACTED]');
  }, 60_000);

  it('text logs: masked too, each plugin line tagged and its controls escaped, nothing forged', async () => {
    const { stderr, answer } = await run([], 'process');
    expectMasked(stderr);
    expectMasked(answer);
    expect(stderr).not.toContain('\u001b');
    const lines = stderr.split('\n');
    expect(lines).toContain(`[plugin leaky.so] \\x1b[31m${FORGED}\\x1b[0m`);
    expect(lines).toContain('[plugin leaky.so] password: [REDACTED]');
    // The forged line is quoted in the crash warning too, indented under it.
    expect(lines.filter((line) => line.startsWith(FORGED))).toEqual([]);
    expect(lines).toContain(`  ${FORGED}`);
  }, 60_000);

  it('--isolation none --log-format json: the relay of fd 2 masks a credential split between two writes', async () => {
    const { stderr } = await run(['--log-format', 'json'], 'none');
    expectMasked(stderr);
    expect(stderr).toContain('sub[REDACTED]');
  }, 60_000);

  it('--isolation none in text: the relay tags, escapes and masks what the plugin writes to fd 2', async () => {
    const { stderr } = await run([], 'none');
    expectMasked(stderr);
    expect(stderr).not.toContain('\u001b');
    const lines = stderr.split('\n');
    expect(lines).toContain('[plugin leaky.so] sub[REDACTED]');
    expect(lines).toContain(`[plugin leaky.so] \\x1b[31m${FORGED}\\x1b[0m`);
  }, 60_000);
});

// Runs the built `entropic-mcp` CLI: inspect and call against every fixture. Help texts and the usage errors of
// the commands are their `run(argv)` answers, checked in this process (support/cli-in-process.ts); the entry's own
// behaviour (version, the command list, an unknown command) and every plugin run go through the real process.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { describe, expect, it } from 'vitest';
import { runCommand } from './support/cli-in-process.js';
import { buildFixture, tempDir } from './support/serve-helpers.js';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.js');

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

describe('entropic-mcp inspect', () => {
  it('prints name, API version and the tools table', () => {
    const r = run('inspect', fixture('crashy'));
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/name\s+crashy/);
    expect(r.stdout).toMatch(/api\s+1/);
    expect(r.stdout).toMatch(/sleep\s+-\s+sleeps ms/);
  });
  it('prints JSON with --json', () => {
    const r = run('inspect', fixture('crashy'), '--json');
    expect(r.status).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(info).toMatchObject({ name: 'crashy', apiVersion: 1, isolation: 'process' });
    expect(info.tools.map((t: { name: string }) => t.name)).toContain('hang');
  });
  it('shows the instance count, 1 unless --instances asks for more', () => {
    expect(run('inspect', fixture('crashy')).stdout).toMatch(/instances\s+1\n/);
    const r = run('inspect', fixture('crashy'), '--instances', '2', '--json');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'crashy', instances: 2 });
    expect(run('inspect', fixture('crashy'), '--instances', '0').status).toBe(2);
  });
  it('shows the sandbox --sandbox asks for and what this system enforces of it (none without)', () => {
    expect(run('inspect', fixture('crashy')).stdout).toMatch(/sandbox\s+none\n/);
    const r = run('inspect', fixture('crashy'), '--sandbox', '{read: [/usr/share], open_files: 9}');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(
      'sandbox     read /usr/share; write none; connect none; no exec; no new processes; open files 9\n',
    );
    expect(r.stdout).toMatch(/ {2}enforced {2}filesystem rules \(Landlock ABI \d+\)\n/);
    expect(r.stdout).toContain('  enforced  limits: 9 open files (RLIMIT_NOFILE)\n');
    const json = JSON.parse(run('inspect', fixture('crashy'), '--sandbox', '{}', '--json').stdout);
    expect(json.sandbox).toMatchObject({ summary: expect.stringMatching(/^read none;/), notEnforced: [] });
    expect(run('inspect', fixture('crashy'), '--sandbox', '{reed: []}').stderr).toContain(
      '--sandbox has an unknown key "reed"; did you mean `read`?',
    );
  });
  const broken: [string, string][] = [
    ['missing-symbols', 'ENTROPIC_ERROR_PLUGIN_LOAD_FAILED (10)'],
    ['wrong-version', 'ENTROPIC_ERROR_PLUGIN_VERSION_MISMATCH (9)'],
    ['not-elf', 'ENTROPIC_ERROR_PLUGIN_LOAD_FAILED (10)'],
    ['null-create', 'ENTROPIC_ERROR_PLUGIN_LOAD_FAILED (10)'],
    ['empty-name', 'ENTROPIC_ERROR_PLUGIN_LOAD_FAILED (10)'],
    ['bad-list', 'ENTROPIC_PLUGIN_BAD_ANSWER'],
  ];
  for (const [name, code] of broken) {
    it(`exits non-zero with the code name for ${name}`, () => {
      const r = run('inspect', fixture(name));
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(code);
      expect(r.stderr).toContain(`${name}.so`);
    });
  }
  it('rejects a bad --isolation as a usage error', () => {
    const r = run('inspect', fixture('crashy'), '--isolation', 'thread');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--isolation');
  });
});

describe('entropic-mcp call', () => {
  it('call --sandbox runs the call in that sandbox', () => {
    const r = run(
      'call',
      fixture('sandbox-hostile'),
      'try',
      '{"what":"read","path":"/etc/hostname"}',
      '--sandbox',
      '{}',
    );
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).result).toBe('refused EACCES /etc/hostname');
  });
  it('prints the envelope, with config and working directory applied', () => {
    const r = run('call', fixture('crashy'), 'state', '{}', '--config', '{"k":"v"}', '--cwd', '/tmp');
    expect(r.status).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(answer.directives).toEqual([]);
    expect(JSON.parse(answer.result)).toMatchObject({ config: { k: 'v' }, dir: '/tmp' });
  });
  it('reports a crash with the signal and never dies from it', () => {
    const r = run('call', fixture('crashy'), 'segv');
    expect(r.signal).toBeNull();
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('ENTROPIC_PLUGIN_CRASHED');
    expect(r.stderr).toContain('SIGSEGV');
  });
  it('contains a crash in --isolation none too', () => {
    const r = run('call', fixture('crashy'), 'abort', '--isolation', 'none');
    expect(r.signal).toBeNull();
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('SIGABRT');
  });
  it('stops a hung call at --timeout', () => {
    const r = run('call', fixture('crashy'), 'hang', '--timeout', '1500');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('ENTROPIC_ERROR_TIMEOUT (11)');
    expect(r.stderr).toContain('did not answer within 1500 ms');
  });
  it('reports a bad answer naming the plugin', () => {
    const r = run('call', fixture('bad-answers'), 'missing_result', '--no-validate');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('ENTROPIC_PLUGIN_BAD_ANSWER');
    expect(r.stderr).toContain('"bad-answers"');
  });
  it('rejects arguments that are not a JSON object', async () => {
    expect((await runCommand('call', fixture('crashy'), 'echo', '[1]')).status).toBe(2);
    expect((await runCommand('call', fixture('crashy'), 'echo', '{oops')).stderr).toContain(
      'ARGS_JSON is not valid JSON',
    );
    expect((await runCommand('call', fixture('crashy'))).stderr).toContain('missing TOOL');
  });
});

describe('entropic-mcp call checks the call before the plugin sees it', () => {
  const sturdy = buildFixture(tempDir('cli-check'), 'sturdy');
  const sturdyBad = buildFixture(tempDir('cli-check-bad'), 'sturdy', 'libbad.so', ['BAD_SCHEMA']);

  it('refuses an unknown tool, naming it, the near name and the tools there are', () => {
    const r = run('call', sturdy, 'ecoh', '{"text":"x"}');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('unknown tool "ecoh" in plugin sturdy; did you mean `echo`?');
    expect(r.stderr).toContain('(its tools: echo, calls, cwd');
  });
  it('refuses arguments that do not match the inputSchema, naming the field', () => {
    const wrongType = run('call', sturdy, 'echo', '{"text":5}');
    expect(wrongType.status).toBe(1);
    expect(wrongType.stderr).toContain('Invalid arguments for tool echo: /text must be string');
    const missing = run('call', sturdy, 'echo', '{}');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('/text');
    expect(missing.stderr).toContain("required property 'text'");
  });
  it('checks in the in-process mode too', () => {
    const r = run('call', sturdy, 'echo', '{"text":5}', '--isolation', 'none');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Invalid arguments for tool echo: /text must be string');
  });
  it('names a tool whose inputSchema cannot be used', () => {
    const r = run('call', sturdyBad, 'broken', '{}');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('tool "broken" has an inputSchema that cannot be used');
  });
  it('calls a valid call, and hands anything to the plugin with --no-validate', () => {
    expect(JSON.parse(run('call', sturdy, 'echo', '{"text":"ok"}').stdout).result).toBe('ok');
    const unchecked = run('call', sturdy, 'echo', '{"text":5}', '--no-validate');
    expect(unchecked.stderr).not.toContain('Invalid arguments');
    expect(run('call', sturdy, 'ecoh', '{}', '--no-validate').stderr).not.toContain('unknown tool "ecoh"');
  });
});

describe('entropic-mcp help and version', () => {
  it('--version prints the package version', () => {
    const manifest = JSON.parse(readFileSync(join(dirname(cli), '..', 'package.json'), 'utf8'));
    for (const flag of ['--version', '-v']) {
      const r = run(flag);
      expect(r.status, flag).toBe(0);
      expect(r.stdout, flag).toBe(`${manifest.version}\n`);
    }
  });
  it.each([
    ['call', ['--no-validate', '--timeout MS', '--isolation MODE', 'inputSchema', 'Exit status']],
    ['inspect', ['--instances N', '--json', '--isolation MODE', 'Exit status']],
    ['serve', ['--config FILE', '--http [HOST:]PORT', '--keep-going', '--context-header NAME']],
    ['new-plugin', ['--dir DIR', 'Makefile', '--plain']],
    ['verify-plugin', ['--json', 'ABI lock', 'Exit status']],
  ])('%s --help explains every option', async (command, expected) => {
    const r = await runCommand(command, '--help');
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n').length).toBeGreaterThan(5);
    for (const text of expected) expect(r.stdout, text).toContain(text);
  });
});

describe('entropic-mcp', () => {
  it('lists the commands and refuses an unknown one', () => {
    expect(run('--help').stdout).toMatch(/commands: .*call.*inspect/);
    const r = run('frobnicate');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown command "frobnicate"');
  });

  it('an unknown command is one line and a hint, not the usage text', () => {
    const r = run('frobnicate');
    expect(r.status).toBe(2);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines, r.stderr).toHaveLength(2);
    expect(lines[0]).toContain('entropic-mcp: unknown command "frobnicate" (commands: ');
    expect(lines[1]).toContain('run `entropic-mcp --help`');
    expect(r.stderr).not.toContain('usage:');
  });

  it.each([
    [
      ['serve', '--htp', '80'],
      "entropic-mcp serve: Unknown option '--htp'",
      'run `entropic-mcp serve --help`',
    ],
    [
      ['serve', '--stdio', '--http', '80'],
      'entropic-mcp serve: --stdio and --http exclude',
      'run `entropic-mcp serve --help`',
    ],
    [['call', fixture('crashy')], 'entropic-mcp call: missing TOOL', 'run `entropic-mcp call --help`'],
    [['inspect'], 'entropic-mcp inspect: missing PLUGIN.so', 'run `entropic-mcp inspect --help`'],
    [
      ['inspect', '--jsn'],
      "entropic-mcp inspect: Unknown option '--jsn'",
      'run `entropic-mcp inspect --help`',
    ],
    [
      ['call', '--timout', '5'],
      "entropic-mcp call: Unknown option '--timout'",
      'run `entropic-mcp call --help`',
    ],
    [
      ['verify-plugin', 'a.so', 'b.so'],
      'entropic-mcp verify-plugin: unexpected arguments: b.so',
      'run `entropic-mcp verify-plugin --help`',
    ],
    [
      ['verify-plugin', '--jsn'],
      "entropic-mcp verify-plugin: Unknown option '--jsn'",
      'run `entropic-mcp verify-plugin --help`',
    ],
    [
      ['new-plugin'],
      'entropic-mcp new-plugin: expected exactly one NAME',
      'run `entropic-mcp new-plugin --help`',
    ],
  ])('a usage error (%j) is one line and a hint, not the usage text', async (args, first, hint) => {
    const [command = '', ...rest] = args;
    const r = await runCommand(command, ...rest);
    expect(r.status).toBe(2);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines, r.stderr).toHaveLength(2);
    expect(lines[0]).toContain(first);
    expect(lines[1]).toContain(hint);
    expect(r.stderr).not.toContain('usage:');
  });
});

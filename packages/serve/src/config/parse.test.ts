// Tests of reading serve config files (engine and mapping forms).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MCP_KEYS } from './option-uses.js';
import { ConfigError, loadServeConfig, parseServeConfig } from './parse.js';

const FILE = '/etc/app/entropic.yaml';

describe('parseServeConfig', () => {
  it('reads engine-style string paths, relative to the config file', () => {
    const cfg = parseServeConfig('mcp:\n  plugins:\n    - ./build/libecho.so\n    - /opt/libfs.so\n', FILE);
    expect(cfg.plugins).toEqual([{ path: '/etc/app/build/libecho.so' }, { path: '/opt/libfs.so' }]);
  });

  it('reads the mapping form with per-plugin options', () => {
    const text = [
      'mcp:',
      '  plugins:',
      '    - path: ../plugins/libfs.so',
      '      config: { max_bytes: 4096, roots: [a, b] }',
      '      isolation: none',
      '      timeout_ms: 2500',
      '      memory_limit_mb: 256',
      '      instances: 3',
    ].join('\n');
    expect(parseServeConfig(text, FILE).plugins).toEqual([
      {
        path: '/etc/plugins/libfs.so',
        config: { max_bytes: 4096, roots: ['a', 'b'] },
        isolation: 'none',
        timeoutMs: 2500,
        memoryLimitMb: 256,
        instances: 3,
      },
    ]);
  });

  it('takes the engine keys working_dir and server_timeout_seconds, ignores the rest of the engine config', () => {
    const text =
      'log_level: WARN\nmodels: { default: lead }\nmcp:\n  enable_git: true\n  working_dir: work\n  server_timeout_seconds: 30\n  plugins: []\n';
    const cfg = parseServeConfig(text, FILE);
    expect(cfg).toEqual({ file: FILE, plugins: [], root: '/etc/app/work', timeoutMs: 30_000, limits: {} });
  });

  it('reads the per-client limits', () => {
    const text =
      'mcp:\n  max_sessions_per_client: 5\n  max_streams_per_client: 0\n  max_connections_per_client: 9\n' +
      '  trusted_proxies: [10.0.0.1, "::1"]\n';
    expect(parseServeConfig(text, FILE).limits).toEqual({
      maxSessionsPerClient: 5,
      maxStreamsPerClient: 0,
      maxConnectionsPerClient: 9,
      trustedProxies: ['10.0.0.1', '::1'],
    });
  });

  it('reads mcp.context_headers as lower-case header names', () => {
    const text = 'mcp:\n  context_headers: [X-Tenant, x-request-source]\n';
    expect(parseServeConfig(text, FILE).contextHeaders).toEqual(['x-tenant', 'x-request-source']);
  });

  it('reads mcp.plugin_log_limit, 0 included', () => {
    expect(parseServeConfig('mcp:\n  plugin_log_limit: 0\n', FILE).pluginLogLimit).toBe(0);
    expect(() => parseServeConfig('mcp:\n  plugins: []\n  plugin_log_limit: -3\n', FILE)).toThrow(
      `${FILE}:3: mcp.plugin_log_limit expects a whole number (0: no limit), got -3`,
    );
  });

  it('reads mcp.metrics as [HOST:]PORT, a bare port on loopback, and names its line when it is not one', () => {
    expect(parseServeConfig('mcp:\n  metrics: "0.0.0.0:9464"\n', FILE).metrics).toEqual({
      host: '0.0.0.0',
      port: 9464,
    });
    expect(parseServeConfig('mcp:\n  metrics: 9464\n', FILE).metrics).toEqual({
      host: '127.0.0.1',
      port: 9464,
    });
    expect(parseServeConfig('mcp:\n  metrics: "[::1]:9100"\n', FILE).metrics).toEqual({
      host: '::1',
      port: 9100,
    });
    expect(parseServeConfig('mcp:\n  plugins: []\n', FILE).metrics).toBeUndefined();
    const bad = (value: string) => () => parseServeConfig(`mcp:\n  plugins: []\n  metrics: ${value}\n`, FILE);
    expect(bad('[9464]')).toThrow(`${FILE}:3: mcp.metrics expects [HOST:]PORT, got [9464]`);
    expect(bad('"metrics.local"')).toThrow(`${FILE}:3: mcp.metrics expects [HOST:]PORT, got "metrics.local"`);
    expect(bad('70000')).toThrow(`${FILE}:3: mcp.metrics port must be 0-65535, got 70000`);
  });

  it.each([
    ['', 'the file is empty'],
    ['- a\n- b\n', 'the top level must be a mapping'],
    ['models: {}\n', 'no "mcp" section'],
    ['mcp: [1]\n', '"mcp" must be a mapping'],
    ['mcp:\n  plugins: libx.so\n', 'mcp.plugins must be a list'],
    ['mcp:\n  plugins: [42]\n', 'mcp.plugins[0] must be a path string or a mapping'],
    ['mcp:\n  plugins: [{ config: {} }]\n', 'mcp.plugins[0].path must be a non-empty path string'],
    [
      'mcp:\n  plugins: [{ path: a.so, isolate: none }]\n',
      'unknown key "isolate"; did you mean `isolation`?',
    ],
    ['mcp:\n  plugins: [{ path: a.so, timeout: 5 }]\n', 'unknown key "timeout"; did you mean `timeout_ms`?'],
    ['mcp:\n  plugins: [{ path: a.so, zzz: 1 }]\n', 'unknown key "zzz" (known: path, config'],
    ['mcp:\n  plugin: [a.so]\n', 'mcp has an unknown key "plugin"; did you mean `plugins`?'],
    ['mcp:\n  max_streams_per_client: -1\n', 'mcp.max_streams_per_client must be a whole number'],
    ['mcp:\n  max_sessions_per_client: "8"\n', 'mcp.max_sessions_per_client must be a whole number'],
    ['mcp:\n  trusted_proxies: lb.local\n', 'mcp.trusted_proxies must be a list of IP addresses'],
    [
      'mcp:\n  max_stream_per_client: 8\n',
      'unknown key "max_stream_per_client"; did you mean `max_streams_per_client`?',
    ],
    ['mcp:\n  workdir: w\n  plugins: []\n', 'unknown key "workdir"; did you mean `working_dir`?'],
    ['mpc:\n  plugins: [a.so]\n', 'unknown top-level key "mpc"; did you mean `mcp`?'],
    ['plugins: [a.so]\nmcp: {}\n', '"plugins" is not read at the top level; did you mean `mcp: plugins:`?'],
    ['mcp:\n  plugins: [{ path: a.so, isolation: thread }]\n', 'isolation must be "process" or "none"'],
    ['mcp:\n  plugins: [{ path: a.so, timeout_ms: -5 }]\n', 'timeout_ms must be a positive integer'],
    [
      'mcp:\n  plugins: [{ path: a.so, memory_limit_mb: 1.5 }]\n',
      'memory_limit_mb must be a positive integer',
    ],
    ['mcp: {plugins: [\n', 'not valid YAML'],
  ])('refuses %j with a message naming the problem', (text, message) => {
    let caught: unknown;
    try {
      parseServeConfig(text, FILE);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as Error).message).toContain(FILE);
    expect((caught as Error).message).toContain(message);
  });
});

describe('mcp.allowed_hosts and mcp.allowed_origins', () => {
  it('reads both lists, and names the line of a bad one', () => {
    const config = parseServeConfig(
      'mcp:\n  allowed_hosts: [mcp.example.com, "10.0.0.5:3000"]\n  allowed_origins: [https://app.example.com]\n',
      FILE,
    );
    expect(config.allowedHosts).toEqual(['mcp.example.com', '10.0.0.5:3000']);
    expect(config.allowedOrigins).toEqual(['https://app.example.com']);
    expect(() => parseServeConfig('mcp:\n  plugins: []\n  allowed_hosts: mcp.example.com\n', FILE)).toThrow(
      `${FILE}:3: mcp.allowed_hosts expects a list of host names (HOST or HOST:PORT), got "mcp.example.com"`,
    );
    expect(() => parseServeConfig('mcp:\n  allowed_origins: [app.example.com]\n', FILE)).toThrow(
      `${FILE}:2: mcp.allowed_origins expects a list of origins (SCHEME://HOST[:PORT]), got "app.example.com"`,
    );
  });

  it('suggests the key for a near miss', () => {
    expect(() => parseServeConfig('mcp:\n  allowed_host: [a]\n', FILE)).toThrow(
      'did you mean `allowed_hosts`?',
    );
  });
});

describe('where a refusal points', () => {
  it.each([
    [
      'an unknown plugin-entry key',
      'mcp:\n  plugins:\n    - path: a.so\n      isolate: none\n',
      4,
      'did you mean `isolation`?',
    ],
    [
      'a near miss under mcp',
      'log_level: WARN\nmcp:\n  plugins: []\n  redis_url: redis://r:6379\n',
      4,
      `mcp has an unknown key "redis_url"; did you mean \`redis\`? (serve reads ${MCP_KEYS.join(', ')})`,
    ],
    [
      'a near miss at the top level',
      'models: {}\nworking_dir: w\nmcp: {}\n',
      2,
      '"working_dir" is not read at the top level',
    ],
    [
      'a bad value',
      'mcp:\n  plugins:\n    - a.so\n    - path: b.so\n      timeout_ms: -5\n',
      5,
      'mcp.plugins[1].timeout_ms must be a positive integer',
    ],
    [
      'a bad redis URL',
      'mcp:\n\n  redis: http://r\n',
      3,
      'mcp.redis expects a URL starting with redis:// or rediss://',
    ],
    [
      'an unknown key of a tools module',
      'mcp:\n  tools_modules:\n    - t.mjs\n    - path: u.mjs\n      task_suport: optional\n',
      5,
      'mcp.tools_modules[1] has an unknown key "task_suport"',
    ],
    [
      'a bad task limit',
      'mcp:\n  tasks:\n    max_ttl_ms: 5\n    poll_interval_ms: -1\n',
      4,
      'mcp.tasks.poll_interval_ms',
    ],
    [
      'a bad context header name',
      'mcp:\n  context_headers:\n    - x-tenant\n    - "x tenant"\n',
      4,
      'mcp.context_headers[1] expects an HTTP header name, got "x tenant"',
    ],
    [
      'a near miss of context_headers',
      'mcp:\n  context_header: [x-tenant]\n',
      2,
      'mcp has an unknown key "context_header"; did you mean `context_headers`?',
    ],
    ['context_headers not a list', 'mcp:\n  plugins: []\n  context_headers: x-tenant\n', 3, 'must be a list'],
    ['a YAML syntax error', 'mcp:\n  plugins: [a.so\n  working_dir: w\n', 3, 'not valid YAML'],
  ])('%s: file:line, then the message', (_, text, line, message) => {
    expect(() => parseServeConfig(text, FILE)).toThrow(`${FILE}:${line}: `);
    expect(() => parseServeConfig(text, FILE)).toThrow(message);
  });

  it('reads the engine keys that only look like serve keys from afar', () => {
    expect(() => parseServeConfig('mcp:\n  enable_git: true\n  plugins: []\n', FILE)).not.toThrow();
  });
});

describe('loadServeConfig', () => {
  it('resolves paths against the folder of the file it read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'entropic-config-'));
    writeFileSync(join(dir, 'serve.yaml'), 'mcp:\n  plugins: [lib/libecho.so]\n');
    const cfg = await loadServeConfig(join(dir, 'serve.yaml'));
    expect(cfg.plugins[0]?.path).toBe(join(dir, 'lib/libecho.so'));
  });

  it('names the file it could not read', async () => {
    await expect(loadServeConfig('/nonexistent/entropic.yaml')).rejects.toThrow(
      /\/nonexistent\/entropic.yaml: cannot read the config file/,
    );
  });
});

describe('mcp.redis and mcp.request_state_key', () => {
  it('reads both, and names a bad one', () => {
    const key = 'k'.repeat(32);
    const config = parseServeConfig(
      `mcp:\n  redis: redis://r:6379\n  request_state_key: ${key}\n`,
      '/c/x.yaml',
    );
    expect(config.redis).toBe('redis://r:6379');
    expect(config.requestStateKey).toBe(key);
    expect(() => parseServeConfig('mcp:\n  redis: http://r\n', '/c/x.yaml')).toThrow(
      /mcp.redis expects a URL starting with redis:\/\/ or rediss:\/\//,
    );
    expect(() => parseServeConfig('mcp:\n  request_state_key: short\n', '/c/x.yaml')).toThrow(
      /mcp.request_state_key must be a string of at least 32 characters/,
    );
  });

  it('reads mcp.drain_timeout_ms, and names a bad one', () => {
    expect(parseServeConfig('mcp:\n  drain_timeout_ms: 0\n', '/c/x.yaml').drainTimeoutMs).toBe(0);
    expect(() => parseServeConfig('mcp:\n  drain_timeout_ms: -1\n', '/c/x.yaml')).toThrow(
      /mcp.drain_timeout_ms must be a whole number of milliseconds \(0: none\)/,
    );
  });

  it('reads mcp.sse_keep_alive_ms', () => {
    expect(parseServeConfig('mcp:\n  sse_keep_alive_ms: 5000\n', '/c/x.yaml').sseKeepAliveMs).toBe(5000);
  });

  it('reads mcp.redis_timeout_ms, and names a bad one', () => {
    expect(parseServeConfig('mcp:\n  redis_timeout_ms: 2500\n', '/c/x.yaml').redisTimeoutMs).toBe(2500);
    expect(() => parseServeConfig('mcp:\n  redis_timeout_ms: soon\n', '/c/x.yaml')).toThrow(
      /mcp.redis_timeout_ms expects a positive whole number of milliseconds, got "soon"/,
    );
  });
});

describe('task keys', () => {
  it('reads task_support of plugins and tools modules, and mcp.tasks', () => {
    const text = [
      'mcp:',
      '  plugins:',
      '    - path: a.so',
      '      task_support: optional',
      '    - path: b.so',
      '      task_support: { "*": forbidden, build: required }',
      '  tools_modules:',
      '    - ./tools.mjs',
      '    - path: /opt/more.mjs',
      '      task_support: { crawl: optional }',
      '  tasks: { max_per_principal: 4, default_ttl_ms: 60000, max_ttl_ms: 600000, poll_interval_ms: 250,',
      '    max_finished_per_principal: 50, max_finished_bytes_per_principal: 1048576, sync_window_ms: 0 }',
      '  node_timeout_ms: 5000',
    ].join('\n');
    const config = parseServeConfig(text, FILE);
    expect(config.plugins.map((p) => p.taskSupport)).toEqual([
      'optional',
      { '*': 'forbidden', build: 'required' },
    ]);
    expect(config.toolsModules).toEqual([
      { path: '/etc/app/tools.mjs' },
      { path: '/opt/more.mjs', taskSupport: { crawl: 'optional' } },
    ]);
    expect(config.tasks).toEqual({
      maxPerPrincipal: 4,
      maxFinishedPerPrincipal: 50,
      maxFinishedBytesPerPrincipal: 1_048_576,
      defaultTtlMs: 60_000,
      maxTtlMs: 600_000,
      pollIntervalMs: 250,
      syncWindowMs: 0,
    });
    expect(config.nodeTimeoutMs).toBe(5000);
  });

  it('names what is wrong with them', () => {
    const bad = (lines: string[]) => () => parseServeConfig(['mcp:', ...lines].join('\n'), FILE);
    expect(bad(['  plugins:', '    - path: a.so', '      task_support: sometimes'])).toThrow(
      /mcp.plugins\[0\].task_support must be "forbidden", "optional" or "required", got "sometimes"/,
    );
    expect(bad(['  plugins:', '    - path: a.so', '      task_support: { build: yes }'])).toThrow(
      /mcp.plugins\[0\].task_support.build must be/,
    );
    expect(bad(['  tools_modules:', '    - path: t.mjs', '      task_suport: optional'])).toThrow(
      /mcp.tools_modules\[0\] has an unknown key "task_suport"; did you mean `task_support`/,
    );
    expect(bad(['  tasks: { max_per_principle: 3 }'])).toThrow(
      /mcp.tasks has an unknown key "max_per_principle"/,
    );
    expect(bad(['  tasks: { max_ttl_ms: 0 }'])).toThrow(/mcp.tasks.max_ttl_ms must be a positive integer/);
    expect(bad(['  tools_modules: t.mjs'])).toThrow(/mcp.tools_modules must be a list/);
  });
});

describe('scopes of a plugin entry', () => {
  it('reads a list for every tool, or a mapping by tool name', () => {
    const text = [
      'mcp:',
      '  plugins:',
      '    - path: a.so',
      '      scopes: [read]',
      '    - path: b.so',
      '      scopes: { "*": [read], reset: [read, admin] }',
    ].join('\n');
    expect(parseServeConfig(text, FILE).plugins.map((p) => p.scopes)).toEqual([
      ['read'],
      { '*': ['read'], reset: ['read', 'admin'] },
    ]);
  });

  it('names what is wrong with them', () => {
    const bad = (line: string) => () =>
      parseServeConfig(['mcp:', '  plugins:', '    - path: a.so', `      ${line}`].join('\n'), FILE);
    expect(bad('scopes: admin')).toThrow(/entropic.yaml:4: mcp.plugins\[0\].scopes must be a list of scopes/);
    expect(bad('scopes: { reset: admin }')).toThrow(/mcp.plugins\[0\].scopes.reset must be a list of scopes/);
    expect(bad('scopes: [read, "two words"]')).toThrow(
      /mcp.plugins\[0\].scopes\[1\] must be one scope: a non-empty string without spaces, got "two words"/,
    );
    expect(bad('scope: [read]')).toThrow(/has an unknown key "scope"; did you mean `scopes`/);
  });
});

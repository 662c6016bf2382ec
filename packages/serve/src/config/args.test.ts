// Tests of parsing the serve command line.
import { describe, expect, it } from 'vitest';
import { parseHttpAddress, parseServeArgs, UsageError } from './args.js';

describe('parseServeArgs', () => {
  it('defaults to stdio with nothing else set', () => {
    expect(parseServeArgs([], '/w')).toEqual({
      plugins: [],
      toolsModules: [],
      transport: { kind: 'stdio' },
      keepGoing: false,
      help: false,
      limits: {},
      contextHeaders: [],
      contextHeadersAllowCredentials: false,
    });
  });

  it('reads every option and resolves paths against the current directory', () => {
    const argv = [
      '--config=conf/e.yaml',
      '--plugin',
      'a/liba.so',
      '--plugin',
      '/abs/libb.so',
      '--http',
      '8080',
      '--root',
      'proj',
      '--isolation',
      'none',
      '--timeout',
      '1500',
      '--tools-module',
      'tools/extra.mjs',
      '--instances',
      '4',
      '--keep-going',
      '--context-header',
      'X-Tenant',
      '--context-header-allow-credentials',
    ];
    expect(parseServeArgs(argv, '/w')).toEqual({
      configFile: '/w/conf/e.yaml',
      plugins: ['/w/a/liba.so', '/abs/libb.so'],
      toolsModules: ['/w/tools/extra.mjs'],
      transport: { kind: 'http', host: '127.0.0.1', port: 8080 },
      root: '/w/proj',
      isolation: 'none',
      timeoutMs: 1500,
      instances: 4,
      keepGoing: true,
      help: false,
      limits: {},
      contextHeaders: ['x-tenant'],
      contextHeadersAllowCredentials: true,
    });
  });

  it.each([
    [['--stdio', '--http', '3000'], '--stdio and --http exclude each other'],
    [['--isolation', 'thread'], '--isolation expects process or none'],
    [['--timeout', '0'], '--timeout expects a positive whole number'],
    [['--plugin-log-limit=-1'], '--plugin-log-limit expects a whole number (0: no limit), got "-1"'],
    [['--context-header', 'x:y'], '--context-header expects an HTTP header name, got "x:y"'],
    [['--timeout', '1e3'], '--timeout expects a positive whole number'],
    [['--http', 'localhost'], '--http expects [HOST:]PORT'],
    [['--http', '70000'], '--http port must be 0-65535'],
    [['--bogus'], "Unknown option '--bogus'"],
    [['libx.so'], 'unexpected argument "libx.so"'],
    [['--instances', '0'], '--instances expects a whole number from 1 to 256'],
    [['--http', '0', '--workers', '0'], '--workers expects a whole number from 1 to 64'],
    [['--workers', '2'], '--workers needs --http'],
    [['--max-streams-per-client', '8'], '--max-*-per-client and --trusted-proxy need --http'],
    [['--http', '0', '--max-sessions-per-client', 'x1'], '--max-sessions-per-client expects a whole number'],
    [['--http', '0', '--max-connections-per-client', '2.5'], '--max-connections-per-client expects a whole'],
    [['--http', '0', '--trusted-proxy', 'lb.local'], '--trusted-proxy expects an IP address, got "lb.local"'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseServeArgs(argv, '/w')).toThrow(UsageError);
    expect(() => parseServeArgs(argv, '/w')).toThrow(message);
  });
});

describe('--redis and --workers', () => {
  it('reads both', () => {
    const args = parseServeArgs(['--http', '0', '--redis', 'redis://r:6379', '--workers', '3'], '/w');
    expect(args.redis).toBe('redis://r:6379');
    expect(args.workers).toBe(3);
  });

  it('reads --sse-keep-alive', () => {
    expect(parseServeArgs(['--http', '0', '--sse-keep-alive', '500'], '/w').sseKeepAliveMs).toBe(500);
  });

  it('reads --drain-timeout (0: none), names a bad one, and wants --http', () => {
    expect(parseServeArgs(['--http', '0', '--drain-timeout', '2500'], '/w').drainTimeoutMs).toBe(2500);
    expect(parseServeArgs(['--http', '0', '--drain-timeout', '0'], '/w').drainTimeoutMs).toBe(0);
    expect(() => parseServeArgs(['--http', '0', '--drain-timeout', 'soon'], '/w')).toThrow(
      /--drain-timeout expects a whole number of milliseconds \(0: none\), got "soon"/,
    );
    expect(() => parseServeArgs(['--drain-timeout', '100'], '/w')).toThrow(/--drain-timeout needs --http/);
  });

  it('reads --redis-timeout, and names a bad one', () => {
    expect(parseServeArgs(['--http', '0', '--redis-timeout', '1500'], '/w').redisTimeoutMs).toBe(1500);
    expect(() => parseServeArgs(['--http', '0', '--redis-timeout', '0'], '/w')).toThrow(
      /--redis-timeout expects a positive whole number of milliseconds, got "0"/,
    );
  });
});

describe('allowed hosts and origins', () => {
  it('reads --allowed-hosts and --allowed-origins, comma-separated or repeated, and wants --http', () => {
    const argv = [
      '--http',
      '0',
      '--allowed-hosts',
      'MCP.example.com, api.example.com:8443',
      '--allowed-hosts',
      '[::1]',
    ];
    argv.push('--allowed-origins', 'https://app.example.com');
    const args = parseServeArgs(argv, '/w');
    expect(args.allowedHosts).toEqual(['mcp.example.com', 'api.example.com:8443', '[::1]']);
    expect(args.allowedOrigins).toEqual(['https://app.example.com']);
    expect(() => parseServeArgs(['--allowed-hosts', 'a.example'], '/w')).toThrow(
      '--allowed-hosts needs --http',
    );
  });

  it.each([
    [
      ['--allowed-hosts', 'a b'],
      '--allowed-hosts expects a list of host names (HOST or HOST:PORT), got "a b"',
    ],
    [
      ['--allowed-hosts', 'http://a'],
      '--allowed-hosts expects a list of host names (HOST or HOST:PORT), got "http://a"',
    ],
    [
      ['--allowed-origins', 'app.example.com'],
      '--allowed-origins expects a list of origins (SCHEME://HOST[:PORT]), got "app.example.com"',
    ],
    [
      ['--allowed-origins', 'https://a.example/x'],
      '--allowed-origins expects a list of origins (SCHEME://HOST[:PORT]), got "https://a.example/x"',
    ],
  ])('%j is refused: %s', (argv, message) => {
    expect(() => parseServeArgs(['--http', '0', ...argv], '/w')).toThrow(message);
  });

  it('an unknown flag names the nearest one', () => {
    expect(() => parseServeArgs(['--allowed-host', 'a'], '/w')).toThrow(
      "Unknown option '--allowed-host'; did you mean `--allowed-hosts`?",
    );
  });
});

describe('per-client limits', () => {
  it('reads every flag, 0 included, and repeated --trusted-proxy', () => {
    const argv = ['--http', '0', '--max-sessions-per-client', '10', '--max-streams-per-client', '0'];
    argv.push('--max-connections-per-client', '7', '--trusted-proxy', '10.0.0.1', '--trusted-proxy', '::1');
    expect(parseServeArgs(argv, '/w').limits).toEqual({
      maxSessionsPerClient: 10,
      maxStreamsPerClient: 0,
      maxConnectionsPerClient: 7,
      trustedProxies: ['10.0.0.1', '::1'],
    });
  });
});

describe('parseHttpAddress', () => {
  it.each([
    ['3000', { host: '127.0.0.1', port: 3000 }],
    ['0', { host: '127.0.0.1', port: 0 }],
    ['0.0.0.0:80', { host: '0.0.0.0', port: 80 }],
    ['localhost:9', { host: 'localhost', port: 9 }],
    ['[::1]:8080', { host: '::1', port: 8080 }],
  ])('%s', (text, expected) => {
    expect(parseHttpAddress(text)).toEqual(expected);
  });
});

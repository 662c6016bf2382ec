// Tests of merging the command line and the config file into a serve plan.
import { describe, expect, it } from 'vitest';
import { parseServeArgs } from './args.js';
import { parseServeConfig } from './parse.js';
import { resolveServePlan } from './plan.js';

const file = parseServeConfig(
  [
    'mcp:',
    '  working_dir: ../project',
    '  server_timeout_seconds: 9',
    '  plugins:',
    '    - a/liba.so',
    '    - { path: b/libb.so, isolation: none, timeout_ms: 100, instances: 1 }',
  ].join('\n'),
  '/cfg/serve.yaml',
);

describe('resolveServePlan', () => {
  it('lists config plugins before --plugin ones and lets entry options win', () => {
    const args = parseServeArgs(
      ['--plugin', 'libc.so', '--isolation', 'process', '--timeout', '500', '--instances', '2'],
      '/cwd',
    );
    const plan = resolveServePlan(args, file, '/cwd');
    expect(plan.plugins).toEqual([
      { path: '/cfg/a/liba.so', isolation: 'process', timeoutMs: 500, instances: 2 },
      { path: '/cfg/b/libb.so', isolation: 'none', timeoutMs: 100, instances: 1 },
      { path: '/cwd/libc.so', isolation: 'process', timeoutMs: 500, instances: 2 },
    ]);
    expect(plan.root).toBe('/project');
  });

  it('falls back to the config timeout, then to nothing; --root beats the config, cwd is the last resort', () => {
    const plan = resolveServePlan(parseServeArgs(['--root', 'r'], '/cwd'), file, '/cwd');
    expect(plan.plugins[0]).toEqual({ path: '/cfg/a/liba.so', timeoutMs: 9000 });
    expect(plan.root).toBe('/cwd/r');
    const bare = resolveServePlan(parseServeArgs(['--plugin', '/x.so'], '/cwd'), undefined, '/cwd');
    expect(bare.plugins).toEqual([{ path: '/x.so' }]);
    expect(bare.root).toBe('/cwd');
  });

  it('allows the headers of mcp.context_headers and of --context-header, each once', () => {
    const withHeaders = parseServeConfig('mcp:\n  context_headers: [X-Tenant, x-region]\n', '/cfg/s.yaml');
    const args = parseServeArgs(['--context-header', 'x-region', '--context-header', 'X-Trace'], '/cwd');
    expect(resolveServePlan(args, withHeaders, '/cwd').contextHeaders).toEqual([
      'x-tenant',
      'x-region',
      'x-trace',
    ]);
    expect(resolveServePlan(parseServeArgs([], '/cwd'), withHeaders, '/cwd').contextHeaders).toEqual([
      'x-tenant',
      'x-region',
    ]);
    expect(resolveServePlan(parseServeArgs([], '/cwd'), file, '/cwd').contextHeaders).toEqual([]);
  });

  it('gives every plugin the log limit of --plugin-log-limit, else of mcp.plugin_log_limit', () => {
    const limited = parseServeConfig('mcp:\n  plugin_log_limit: 7\n  plugins: [a.so]\n', '/cfg/s.yaml');
    const plan = (argv: string[]) => resolveServePlan(parseServeArgs(argv, '/cwd'), limited, '/cwd');
    expect(plan([]).plugins[0]?.logLimit).toBe(7);
    expect(plan(['--plugin-log-limit', '0']).plugins[0]?.logLimit).toBe(0);
    expect(resolveServePlan(parseServeArgs([], '/cwd'), file, '/cwd').plugins[0]?.logLimit).toBeUndefined();
  });

  it('takes the Prometheus endpoint from --metrics, else from mcp.metrics, else has none', () => {
    const withMetrics = parseServeConfig('mcp:\n  metrics: "0.0.0.0:9464"\n', '/cfg/s.yaml');
    const flag = parseServeArgs(['--metrics', '9100'], '/cwd');
    expect(resolveServePlan(flag, withMetrics, '/cwd').metrics).toEqual({ host: '127.0.0.1', port: 9100 });
    const none = parseServeArgs([], '/cwd');
    expect(resolveServePlan(none, withMetrics, '/cwd').metrics).toEqual({ host: '0.0.0.0', port: 9464 });
    expect(resolveServePlan(flag, file, '/cwd').metrics).toEqual({ host: '127.0.0.1', port: 9100 });
    expect(resolveServePlan(none, file, '/cwd').metrics).toBeUndefined();
    expect(resolveServePlan(none, undefined, '/cwd').metrics).toBeUndefined();
  });
});

describe('options the table merges', () => {
  it('joins the allowed hosts of the file and the flags, and lets a flag win over its key', () => {
    const config = parseServeConfig(
      'mcp:\n  allowed_hosts: [a.example]\n  redis_timeout_ms: 900\n  sse_keep_alive_ms: 700\n',
      '/cfg/serve.yaml',
    );
    const args = parseServeArgs(
      ['--http', '0', '--allowed-hosts', 'b.example,a.example', '--redis-timeout', '50'],
      '/cwd',
    );
    const plan = resolveServePlan(args, config, '/cwd');
    expect(plan.allowedHosts).toEqual(['a.example', 'b.example']);
    expect(plan.allowedOrigins).toBeUndefined();
    expect(plan.redisTimeoutMs).toBe(50);
    expect(plan.sseKeepAliveMs).toBe(700);
  });
});

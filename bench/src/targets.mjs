// Every server the bench drives, as a command line plus the echo call it answers.
// A target whose build output is missing is reported as skipped (with the reason), never silently dropped.
// `modern: true` marks the servers that serve the 2026-07-28 era (workloads/modern.mjs); `modernArgs` is
// the command line for that era when it differs.
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const benchDir = fileURLToPath(new URL('..', import.meta.url));
export const rootDir = fileURLToPath(new URL('../..', import.meta.url));
const node = process.execPath;
const echoCall = { tool: 'echo', arguments: { text: 'hello' }, expect: 'hello' };

function server(file) {
  return `${benchDir}servers/${file}`;
}

function missing(...files) {
  const absent = files.filter((file) => !existsSync(file));
  return absent.length > 0 ? `not built: ${absent.map((f) => f.replace(rootDir, '')).join(', ')}` : undefined;
}

/** The example echo plugin's shared object, if built. */
export function echoPlugin() {
  const dir = `${rootDir}examples/plugins/echo/build`;
  if (!existsSync(dir)) return undefined;
  const so = readdirSync(dir).find((name) => name.endsWith('.so'));
  return so ? `${dir}/${so}` : undefined;
}

const serverDist = `${rootDir}packages/server/dist`;
const loaderCli = `${rootDir}packages/serve/dist/cli.js`;

function pluginTarget(name, label, isolation) {
  const so = echoPlugin();
  return {
    name,
    label,
    command: node,
    args: [loaderCli, 'serve', '--stdio', '--plugin', so ?? 'echo', '--isolation', isolation],
    ...echoCall,
    tool: 'echo.echo',
    skip: () => missing(loaderCli) ?? (so ? undefined : 'not built: examples/plugins/echo/build/*.so'),
  };
}

/**
 * A plugin target served by another build of the loader at `dir` (a built packages/loader directory: dist/,
 * build/Release/, node_modules/) instead of this checkout's; named "<name> (before)". Its CLI is the loader's own
 * `dist/cli.js` (a build from before the CLI moved to packages/serve), else the `entropic-mcp` of the serve package
 * beside it (`../serve/dist/cli.js`, which loads that checkout's loader).
 */
export function fromBuild(target, dir) {
  const release = `${dir}/build/Release`;
  const cli = [`${dir}/dist/cli.js`, `${dir}/../serve/dist/cli.js`].find((path) => existsSync(path));
  if (cli === undefined)
    throw new Error(
      `${dir} is not a built packages/loader: it has no dist/cli.js (nor ../serve/dist/cli.js beside it)`,
    );
  for (const file of ['build/Release/entropic_plugin_host', 'build/Release/entropic_loader.node'])
    if (!existsSync(`${dir}/${file}`))
      throw new Error(`${dir} is not a built packages/loader: it has no ${file}`);
  return {
    ...target,
    name: `${target.name} (before)`,
    args: target.args.map((arg) => (arg === loaderCli ? cli : arg)),
    env: {
      ENTROPIC_PLUGIN_HOST: `${release}/entropic_plugin_host`,
      ENTROPIC_LOADER_ADDON: `${release}/entropic_loader.node`,
    },
  };
}

/** Baselines every ratio is taken against. */
export const BASELINES = { sdkV1: 'sdk-v1', sdkV2: 'sdk-v2', ceiling: 'bare' };

export function stdioTargets() {
  return [
    {
      name: 'entropic',
      label: 'entropic-mcp (TS echo)',
      command: node,
      args: [server('entropic-stdio.mjs')],
      modern: true,
      ...echoCall,
      skip: () => missing(`${serverDist}/index.js`, `${serverDist}/stdio/index.js`),
    },
    pluginTarget('plugin-isolated', 'entropic-mcp serve, C plugin, isolated', 'process'),
    pluginTarget('plugin-inprocess', 'entropic-mcp serve, C plugin, in-process', 'none'),
    {
      name: 'serve-ts-async',
      label: 'entropic-mcp serve, TS echo answering next turn (--tools-module)',
      command: node,
      args: [loaderCli, 'serve', '--stdio', '--tools-module', server('echo-tools-next-turn.mjs')],
      ...echoCall,
      skip: () => missing(loaderCli),
    },
    {
      name: 'sdk-v1',
      label: 'official SDK v1 1.32.2',
      command: node,
      args: [server('sdk-v1-stdio.mjs')],
      ...echoCall,
    },
    {
      name: 'sdk-v2',
      label: 'official SDK v2 2.4.0',
      command: node,
      args: [server('sdk-v2-stdio.mjs')],
      modernArgs: [server('sdk-v2-stdio.mjs'), '--modern'],
      modern: true,
      ...echoCall,
    },
    {
      name: 'bare',
      label: 'bare Node loop (ceiling)',
      command: node,
      args: [server('bare-stdio.mjs')],
      modern: true,
      ...echoCall,
    },
  ];
}

function httpTarget(name, label, file, skip, modern = true) {
  return {
    name,
    label,
    command: node,
    args: [server(file)],
    modeArgs: (mode) => ['--mode', mode],
    modern,
    ...echoCall,
    skip,
  };
}

/** The fault fixture of the loader's tests, compiled by the instances workload (it has the `spin` tool). */
export const faultyFixture = `${rootDir}packages/serve/test/fixtures/faults/faulty.c`;
export const abiIncludeDir = `${rootDir}packages/abi-headers/include`;

/** `serve --stdio` with `instances` instances of a plugin whose `spin` tool burns 2 ms of CPU per call. */
export function spinTarget(so, instances) {
  return {
    name: `spin-x${instances}`,
    label: `entropic-mcp serve --instances ${instances}, 2 ms CPU tool`,
    command: node,
    args: [loaderCli, 'serve', '--stdio', '--plugin', so, '--instances', String(instances)],
    tool: 'faulty.spin',
    arguments: { us: 2000 },
    expect: 'spun',
    skip: () => missing(loaderCli),
  };
}

export function httpTargets() {
  const so = echoPlugin();
  return [
    httpTarget('entropic', 'entropic-mcp (TS echo)', 'entropic-http.mjs', () =>
      missing(`${serverDist}/index.js`, `${serverDist}/http/index.js`),
    ),
    httpTarget('sdk-v1', 'official SDK v1 1.32.2', 'sdk-v1-http.mjs', undefined, false),
    httpTarget('sdk-v2', 'official SDK v2 2.4.0 (+ @modelcontextprotocol/node)', 'sdk-v2-http.mjs'),
    {
      ...httpTarget(
        'plugin-isolated',
        'entropic-mcp serve --http, C plugin, isolated',
        'plugin-http.mjs',
        undefined,
        false,
      ),
      args: [server('plugin-http.mjs'), '--plugin', so ?? 'echo', '--isolation', 'process'],
      tool: 'echo.echo',
      modes: ['sse'], // serve speaks stateful Streamable HTTP with SSE answers
      skip: () => missing(loaderCli) ?? (so ? undefined : 'not built: examples/plugins/echo/build/*.so'),
    },
    {
      ...httpTarget(
        'serve-ts',
        'entropic-mcp serve --http, TS echo (--tools-module)',
        'plugin-http.mjs',
        undefined,
        false,
      ),
      args: [server('plugin-http.mjs'), '--tools-module', server('echo-tools.mjs')],
      modes: ['sse'], // the same TypeScript tool as `entropic`, configured as serve configures its server
      skip: () => missing(loaderCli),
    },
    httpTarget('bare', 'bare node:http (ceiling)', 'bare-http.mjs'),
  ];
}

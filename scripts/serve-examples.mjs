#!/usr/bin/env node
// Serves the bundled example C plugins with `entropic-mcp serve` (run by `npm start` after install and build,
// in the same process, so serve's parent is the launcher and serve ends when the launcher is gone), as
// examples/plugins/serve.yaml lists them: each in its OS sandbox, working inside examples/plugins/files.
//   node scripts/serve-examples.mjs [--port N] [--host H] [--stdio]
// Default: Streamable HTTP on 127.0.0.1:3000, or the next free port up to 3009 when 3000 is taken.
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const examples = join(root, 'examples', 'plugins');
const serveModule = join(root, 'packages', 'serve', 'dist', 'cli', 'serve.js');
const config = join(examples, 'serve.yaml');

/** Every built example plugin: examples/plugins/<name>/build/*.so */
function examplePlugins() {
  if (!existsSync(examples)) return [];
  return readdirSync(examples, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => {
      const build = join(examples, d.name, 'build');
      if (!existsSync(build)) return [];
      return readdirSync(build)
        .filter((f) => f.endsWith('.so'))
        .map((f) => join(build, f));
    })
    .sort();
}

function isFree(host, port) {
  return new Promise((done) => {
    const probe = createServer();
    probe.once('error', () => done(false));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => done(true)));
  });
}

/** The preferred port, else the next nine, else 0 (the system picks one). */
async function choosePort(host, preferred) {
  for (let port = preferred; port < preferred + 10 && port <= 65535; port++) {
    if (await isFree(host, port)) return port;
    console.error(`• port ${port} on ${host} is busy, trying the next one`);
  }
  return 0;
}

/** Serves the examples as `argv` asks; resolves with serve's exit status. */
export async function serveExamples(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '3000' },
      host: { type: 'string', default: '127.0.0.1' },
      stdio: { type: 'boolean', default: false },
    },
  });
  const plugins = examplePlugins();
  if (plugins.length === 0) {
    console.error(
      `✖ no built example plugins under ${examples}/*/build/ — run \`pnpm exec turbo run build\` first`,
    );
    process.exit(1);
  }
  if (!existsSync(serveModule)) {
    console.error(`✖ ${serveModule} is missing — run \`pnpm exec turbo run build\` first`);
    process.exit(1);
  }

  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`✖ --port expects 0-65535, got "${values.port}"`);
    process.exit(2);
  }
  const args = ['--config', config];
  if (!values.stdio)
    args.push(
      '--http',
      `${values.host.includes(':') ? `[${values.host}]` : values.host}:${await choosePort(values.host, port)}`,
    );

  const { run } = await import(pathToFileURL(serveModule).href);
  return run(args);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  process.exit(await serveExamples(process.argv.slice(2)));

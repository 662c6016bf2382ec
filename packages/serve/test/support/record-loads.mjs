// Preloaded with `--import` into a process under test: writes every module it loads (ES modules as they load,
// CommonJS ones at exit) to the file named by ENTROPIC_RECORD_LOADS, one path a line.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { fileURLToPath } from 'node:url';

const out = process.env.ENTROPIC_RECORD_LOADS;
if (out !== undefined) {
  const hooks = `
    import { appendFileSync } from 'node:fs';
    import { fileURLToPath } from 'node:url';
    export async function load(url, context, next) {
      if (url.startsWith('file:')) appendFileSync(${JSON.stringify(out)}, fileURLToPath(url) + '\\n');
      return next(url, context);
    }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
  const cache = createRequire(fileURLToPath(import.meta.url))('node:module')._cache;
  process.on('exit', () =>
    appendFileSync(
      out,
      Object.keys(cache)
        .map((file) => `${file}\n`)
        .join(''),
    ),
  );
}

// ts-morph (the compiler, about 0.6 s of start-up), loaded on the first definitions read: the commands and library
// calls that never read definitions (help, include-dir, verify-plugin, usage errors) start without it.
import { createRequire } from 'node:module';

type TsMorph = typeof import('ts-morph');

let loaded: TsMorph | undefined;

export function tsMorph(): TsMorph {
  loaded ??= createRequire(import.meta.url)('ts-morph') as TsMorph;
  return loaded;
}

/** ts-morph's `Node`, whose static `is…` guards the reader uses. */
export function tsNode(): TsMorph['Node'] {
  return tsMorph().Node;
}

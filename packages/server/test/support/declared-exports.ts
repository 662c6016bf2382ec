// The names a built entry declares, as a TypeScript consumer sees them: values and types alike, read with the
// compiler from its .d.ts file. Exports tests subtract the runtime keys to pin the type-only names.
import ts from 'typescript';

/** Every exported name of the declaration file `dts`, sorted. */
export function declaredExports(dts: string): string[] {
  const program = ts.createProgram([dts], { noEmit: true, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(dts);
  const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  if (module === undefined) throw new Error(`${dts} is not a module (is the package built?)`);
  return checker
    .getExportsOfModule(module)
    .map((symbol) => symbol.name)
    .sort();
}

/** The names `dts` declares that are not keys of the loaded module: its type-only exports, sorted. */
export function typeOnlyExports(dts: string, runtime: object): string[] {
  const values = new Set(Object.keys(runtime));
  return declaredExports(dts).filter((name) => !values.has(name));
}

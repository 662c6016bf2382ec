// Checks the includes the definitions declare against the headers they use.
import { AbiDefinitionError } from './errors.js';
import type { AbiHeader, AbiType } from './types.js';

function typedefsUsed(type: AbiType, out: Set<string>): void {
  if (type.kind === 'typedef') out.add(type.name);
  if (type.kind === 'const-pointer') out.add(type.to);
  if (type.kind === 'function-pointer') {
    typedefsUsed(type.returns, out);
    for (const p of type.params) typedefsUsed(p.type, out);
  }
}

/**
 * Every typedef a header uses must be declared in that header or in one it includes, and it must
 * include the header that declares its export macro if it has functions; otherwise the generated
 * header would not compile on its own.
 */
export function checkIncludes(headers: AbiHeader[], dir: string, exportMacro: string): void {
  const declaredIn = new Map<string, string>();
  for (const h of headers) {
    for (const item of h.items) {
      if (
        item.kind === 'handle' ||
        item.kind === 'enum' ||
        item.kind === 'struct' ||
        item.kind === 'export-macro'
      ) {
        declaredIn.set(item.name, h.path);
      }
    }
  }
  for (const h of headers) {
    const growable = h.items.find((i) => i.kind === 'struct' && i.growable);
    if (growable && !h.includes.includes('stddef.h')) {
      throw new AbiDefinitionError(
        `${dir}/${h.source}`,
        0,
        `${h.path} declares growable struct ${growable.name}, whose size check needs offsetof: include stddef.h`,
      );
    }
    const used = new Set<string>();
    for (const item of h.items) {
      if (item.kind === 'function') {
        used.add(exportMacro);
        typedefsUsed(item.returns, used);
        for (const p of item.params) typedefsUsed(p.type, used);
      }
      if (item.kind === 'struct') for (const m of item.members) typedefsUsed(m.type, used);
    }
    for (const name of used) {
      const home = declaredIn.get(name);
      if (home && home !== h.path && !h.includes.includes(home)) {
        throw new AbiDefinitionError(
          `${dir}/${h.source}`,
          0,
          `${h.path} uses ${name} but does not include ${home}`,
        );
      }
    }
  }
}

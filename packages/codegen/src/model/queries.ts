// Lookups on the ABI model: every item, the entry points, the error enum.
import type { AbiEnum, AbiFunction, AbiHeader, AbiItem, AbiModel } from './types.js';

/** Every item of the model with the header it belongs to, in header order then definition order. */
export function allItems(model: AbiModel): { header: AbiHeader; item: AbiItem }[] {
  return model.headers.flatMap((header) => header.items.map((item) => ({ header, item })));
}

function functions(model: AbiModel): AbiFunction[] {
  return allItems(model)
    .map(({ item }) => item)
    .filter((item): item is AbiFunction => item.kind === 'function');
}

/** The entry points every plugin exports, in the order they are declared (the contract order). */
export function entryPoints(model: AbiModel): AbiFunction[] {
  return functions(model).filter((f) => f.optional !== true);
}

/** The optional entry points (`@optional`): a loader looks them up, a plugin may leave them out. */
export function optionalEntryPoints(model: AbiModel): AbiFunction[] {
  return functions(model).filter((f) => f.optional === true);
}

/** The enum whose name is `name`, if the model declares it. */
export function enumNamed(model: AbiModel, name: string): AbiEnum | undefined {
  const found = allItems(model).find(({ item }) => item.kind === 'enum' && item.name === name);
  return found?.item as AbiEnum | undefined;
}

/** The `<NAME>_HAS(p, member)` macro a growable struct's header defines: `entropic_call_context_t` → `ENTROPIC_CALL_CONTEXT_HAS`. */
export function hasMacroName(struct: string): string {
  return `${struct.replace(/_t$/, '').toUpperCase()}_HAS`;
}

/** The error enum: the enum whose name is `entropic_error_t`. */
export function errorEnum(model: AbiModel): AbiEnum {
  const found = enumNamed(model, 'entropic_error_t');
  if (!found) throw new Error('the ABI model declares no entropic_error_t enum');
  return found;
}

// Lookups on the ABI model: every item, the entry points, the error enum.
import type { AbiEnum, AbiFunction, AbiHeader, AbiItem, AbiModel } from './types.js';

/** Every item of the model with the header it belongs to, in header order then definition order. */
export function allItems(model: AbiModel): { header: AbiHeader; item: AbiItem }[] {
  return model.headers.flatMap((header) => header.items.map((item) => ({ header, item })));
}

/** The entry points, in the order they are declared (the contract order). */
export function entryPoints(model: AbiModel): AbiFunction[] {
  return allItems(model)
    .map(({ item }) => item)
    .filter((item): item is AbiFunction => item.kind === 'function');
}

/** The error enum: the enum whose name is `entropic_error_t`. */
export function errorEnum(model: AbiModel): AbiEnum {
  const found = allItems(model).find(({ item }) => item.kind === 'enum' && item.name === 'entropic_error_t');
  if (!found) throw new Error('the ABI model declares no entropic_error_t enum');
  return found.item as AbiEnum;
}

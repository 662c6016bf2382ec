// Renders native/entropic_abi_tables.h: entry-point names and error codes for our native code.
import { entryPoints, errorEnum, optionalEntryPoints } from '../model/queries.js';
import type { AbiModel } from '../model/types.js';
import { cBanner } from './banner.js';
import { UNKNOWN_ERROR_NAME } from './tables-ts.js';

/** Renders `native/entropic_abi_tables.h`, the private table header for our own C and C++ code. */
export function renderCTables(model: AbiModel): string {
  const symbols = entryPoints(model);
  const optional = optionalEntryPoints(model);
  const enumerators = errorEnum(model).enumerators;
  return `${cBanner('packages/abi-headers/src/abi')}
#pragma once

/*
 * Private tables for the loader's own native code (not for plugins): the entry-point names in
 * contract order, the optional entry points, and the names of the error codes.
 */

/* The plugin API version these tables were generated for. */
#define ENTROPIC_ABI_PLUGIN_API_VERSION ${model.apiVersion}

/* Number of entry points a plugin exports. */
#define ENTROPIC_ABI_ENTRY_POINT_COUNT ${symbols.length}

/* Entry-point symbol names, in contract order. */
static const char* const entropic_abi_entry_points[ENTROPIC_ABI_ENTRY_POINT_COUNT] = {
${symbols.map((f) => `    "${f.name}"`).join(',\n')}
};

/* Number of optional entry points (looked up, never required). */
#define ENTROPIC_ABI_OPTIONAL_ENTRY_POINT_COUNT ${optional.length}

/* Optional entry-point symbol names, in declaration order, then NULL. */
static const char* const entropic_abi_optional_entry_points[ENTROPIC_ABI_OPTIONAL_ENTRY_POINT_COUNT + 1] = {
${[...optional.map((f) => `    "${f.name}"`), '    0'].join(',\n')}
};

/* Number of entropic_error_t values. */
#define ENTROPIC_ABI_ERROR_COUNT ${enumerators.length}

/* Every entropic_error_t value with its name, in declaration order. */
static const struct {
    const char* name;
    int value;
} entropic_abi_errors[ENTROPIC_ABI_ERROR_COUNT] = {
${enumerators.map((e) => `    {"${e.name}", ${e.value}}`).join(',\n')}
};

/* The name of an entropic_error_t value, or "${UNKNOWN_ERROR_NAME}" when it is out of range. */
static inline const char* entropic_abi_error_name(int code) {
    switch (code) {
${enumerators.map((e) => `    case ${e.value}:\n        return "${e.name}";`).join('\n')}
    default:
        return "${UNKNOWN_ERROR_NAME}";
    }
}
`;
}

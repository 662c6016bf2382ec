// ABI definition of entropic/entropic_export.h: the macro that keeps entry points visible.
import type { ExportMacroSpec, HeaderSpec } from './ctypes.js';

/**
 * The symbol-visibility macro that every entry-point declaration carries.
 *
 * A plugin usually compiles with hidden default visibility. Because the declarations in the
 * plugin header carry this macro, plain definitions of the entry points in the plugin still end
 * up in its dynamic symbol table.
 */
export const header = {
  path: 'entropic/entropic_export.h',
  includes: [],
} as const satisfies HeaderSpec;

/**
 * Marks a declaration as part of the library's public, dynamically visible interface.
 *
 * Empty when ENTROPIC_STATIC_BUILD is defined (nothing to export from a static archive). On
 * Windows it exports while building the DLL (ENTROPIC_BUILDING_DLL defined) and imports
 * otherwise. Everywhere else it requests default visibility, which overrides
 * -fvisibility=hidden for the declared symbol.
 *
 * @visibility Changing how this macro is spelled changes which symbols are visible, never a
 * signature or a layout, so it is not an ABI break and does not bump the API version.
 */
export const ENTROPIC_EXPORT = {
  cases: [
    { when: ['ENTROPIC_STATIC_BUILD'], expands: '' },
    { when: ['_WIN32', 'ENTROPIC_BUILDING_DLL'], expands: '__declspec(dllexport)' },
    { when: ['_WIN32'], expands: '__declspec(dllimport)' },
    { when: [], expands: '__attribute__((visibility("default")))' },
  ],
} as const satisfies ExportMacroSpec;

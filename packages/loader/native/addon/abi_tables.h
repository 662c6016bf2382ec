// The generated ABI tables (entry-point names in contract order, error names),
// bound to the typed pointers this addon calls.
#pragma once

#include <entropic/interfaces/i_mcp_context.h>
#include <entropic_abi_tables.h>

#include <cstddef>
#include <cstring>
#include <string>

namespace entropic_loader {

constexpr size_t kEntryPointCount = ENTROPIC_ABI_ENTRY_POINT_COUNT;
inline const char* const* const kEntryPointNames = entropic_abi_entry_points;
static_assert(ENTROPIC_ABI_PLUGIN_API_VERSION == ENTROPIC_MCP_PLUGIN_API_VERSION,
              "the tables and the public header were generated for different API versions");

// Positions in the generated table, in contract order.
enum EntryPointIndex : size_t {
  kApiVersion,
  kCreateServer,
  kServerName,
  kListTools,
  kExecute,
  kConfigure,
  kSetWorkingDir,
  kDestroy,
  kFree,
};

constexpr size_t kOptionalEntryPointCount = ENTROPIC_ABI_OPTIONAL_ENTRY_POINT_COUNT;
inline const char* const* const kOptionalEntryPointNames = entropic_abi_optional_entry_points;

// Positions in the generated table of optional entry points.
enum OptionalEntryPointIndex : size_t {
  kExecuteWithContext,
};

// Empty when each position of the generated table names the identifier the
// header declares for it; otherwise which position disagrees. Checked once when
// the addon loads, so a table out of step with the header cannot go unnoticed.
inline std::string CheckEntryPointTable() {
  struct Slot {
    size_t index;
    const char* declared;
  };
#define ENTROPIC_LOADER_SLOT(index, fn) Slot{index, (static_cast<void>(&fn), #fn)}
  const Slot slots[] = {
      ENTROPIC_LOADER_SLOT(kApiVersion, entropic_plugin_api_version),
      ENTROPIC_LOADER_SLOT(kCreateServer, entropic_create_server),
      ENTROPIC_LOADER_SLOT(kServerName, entropic_mcp_server_name),
      ENTROPIC_LOADER_SLOT(kListTools, entropic_mcp_server_list_tools),
      ENTROPIC_LOADER_SLOT(kExecute, entropic_mcp_server_execute),
      ENTROPIC_LOADER_SLOT(kConfigure, entropic_mcp_server_configure),
      ENTROPIC_LOADER_SLOT(kSetWorkingDir, entropic_mcp_server_set_working_dir),
      ENTROPIC_LOADER_SLOT(kDestroy, entropic_mcp_server_destroy),
      ENTROPIC_LOADER_SLOT(kFree, entropic_free),
  };
  for (const Slot& slot : slots) {
    if (std::strcmp(kEntryPointNames[slot.index], slot.declared) != 0) {
      return "entry point " + std::to_string(slot.index) + " of the generated table is " +
             kEntryPointNames[slot.index] + ", expected " + slot.declared;
    }
  }
  const Slot optional = ENTROPIC_LOADER_SLOT(kExecuteWithContext, entropic_mcp_server_execute_with_context);
  if (kOptionalEntryPointCount <= optional.index ||
      std::strcmp(kOptionalEntryPointNames[optional.index], optional.declared) != 0) {
    return std::string("the generated table of optional entry points lacks ") + optional.declared;
  }
  return std::string();
#undef ENTROPIC_LOADER_SLOT
}
static_assert(kEntryPointCount == kFree + 1, "the contract has nine entry points");

// The contract name of an entropic_error_t value, `ENTROPIC_ERROR_UNKNOWN` out of range.
inline const char* ErrorName(int value) { return entropic_abi_error_name(value); }

}  // namespace entropic_loader

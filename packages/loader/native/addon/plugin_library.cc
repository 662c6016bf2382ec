// One plugin library opened, checked and instantiated (see plugin_library.h).
#include "plugin_library.h"

#include <dlfcn.h>

#include <cstdlib>

#include "abi_tables.h"

namespace entropic_loader {

namespace {
// dlsym hands back a data pointer; POSIX guarantees it converts to the function pointer.
template <typename Fn>
void Bind(Fn& slot, void* symbol) {
  slot = reinterpret_cast<Fn>(symbol);
}
}  // namespace

PluginLibrary::~PluginLibrary() { Close(); }

bool PluginLibrary::Open(const std::string& path, LoadFailure& failure) {
  failure.value = ENTROPIC_ERROR_PLUGIN_LOAD_FAILED;
  dlerror();
  handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle_ == nullptr) {
    const char* why = dlerror();
    failure.message = "cannot load plugin " + path + ": " + (why != nullptr ? why : "unknown error");
    return false;
  }

  std::string missing;
  size_t missing_count = 0;
  void* symbols[kEntryPointCount] = {};
  for (size_t i = 0; i < kEntryPointCount; ++i) {
    dlerror();
    void* symbol = dlsym(handle_, kEntryPointNames[i]);
    if (symbol == nullptr) {
      missing += (missing_count++ == 0 ? "" : ", ");
      missing += kEntryPointNames[i];
      continue;
    }
    symbols[i] = symbol;
  }
  if (missing_count > 0) {
    failure.message = "plugin " + path + " does not export " + std::to_string(missing_count) + " of the " +
                      std::to_string(kEntryPointCount) + " entry points: " + missing +
                      " (define them with C linkage and include <entropic/interfaces/i_mcp_server.h> so they "
                      "are exported)";
    Close();
    return false;
  }

  Bind(api_version_fn_, symbols[kApiVersion]);
  Bind(create_fn_, symbols[kCreateServer]);
  Bind(name_fn_, symbols[kServerName]);
  Bind(list_tools_fn_, symbols[kListTools]);
  Bind(execute_fn_, symbols[kExecute]);
  Bind(configure_fn_, symbols[kConfigure]);
  Bind(set_working_dir_fn_, symbols[kSetWorkingDir]);
  Bind(destroy_fn_, symbols[kDestroy]);
  Bind(free_fn_, symbols[kFree]);
  for (size_t i = 0; i < kOptionalEntryPointCount; ++i) {
    void* symbol = dlsym(handle_, kOptionalEntryPointNames[i]);
    if (symbol != nullptr && i == kExecuteWithContext) Bind(execute_with_context_fn_, symbol);
  }

  api_version_ = api_version_fn_();
  if (api_version_ != ENTROPIC_MCP_PLUGIN_API_VERSION) {
    failure.value = ENTROPIC_ERROR_PLUGIN_VERSION_MISMATCH;
    // The plugin's version alone: the loader's call guard (src/guard.ts) words the refusal for both modes.
    failure.message = std::to_string(api_version_);
    Close();
    return false;
  }

  server_ = create_fn_();
  if (server_ == nullptr) {
    failure.message = "entropic_create_server() of plugin " + path + " returned NULL";
    Close();
    return false;
  }

  const char* name = name_fn_(server_);
  if (name == nullptr || name[0] == '\0') {
    failure.message = "entropic_mcp_server_name() of plugin " + path +
                      " returned an empty name; the name prefixes every tool and must not be empty";
    Close();
    return false;
  }
  name_ = name;
  return true;
}

char* PluginLibrary::ListTools() { return list_tools_fn_(server_); }

char* PluginLibrary::Execute(const char* tool, const char* args_json) {
  return execute_fn_(server_, tool, args_json);
}

char* PluginLibrary::ExecuteWithContext(const char* tool, const char* args_json,
                                        const entropic_call_context_t* context) {
  if (execute_with_context_fn_ == nullptr) return execute_fn_(server_, tool, args_json);
  return execute_with_context_fn_(server_, tool, args_json, context);
}

void PluginLibrary::Release(char* owned) {
  if (owned != nullptr) free_fn_(owned);
}


int PluginLibrary::Configure(const char* config_json) { return configure_fn_(server_, config_json); }

int PluginLibrary::SetWorkingDir(const char* path) { return set_working_dir_fn_(server_, path); }

void PluginLibrary::Close() {
  execute_with_context_fn_ = nullptr;
  if (server_ != nullptr) {
    destroy_fn_(server_);
    server_ = nullptr;
  }
  if (handle_ != nullptr) {
    dlclose(handle_);
    handle_ = nullptr;
  }
}

}  // namespace entropic_loader

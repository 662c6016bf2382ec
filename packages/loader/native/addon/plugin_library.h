// One plugin shared library opened with dlopen, its nine entry points resolved,
// its version checked and one server instance created. No Node-API in here: the
// instance thread drives it, and the synchronous path calls it on the JS thread.
#pragma once

#include <entropic/interfaces/i_mcp_context.h>

#include <string>

namespace entropic_loader {

// Why a step failed: the entropic_error_t value and a message a plugin author can act on.
struct LoadFailure {
  int value = 0;
  std::string message;
};

class PluginLibrary {
 public:
  PluginLibrary() = default;
  PluginLibrary(const PluginLibrary&) = delete;
  PluginLibrary& operator=(const PluginLibrary&) = delete;
  ~PluginLibrary();

  // dlopen, resolve, check the version, create, read the name. On failure every
  // partial step is undone and `failure` says why.
  bool Open(const std::string& path, LoadFailure& failure);

  // The plugin's own strings (NULL when it answered NULL): hand each back to Release once read.
  char* ListTools();
  char* Execute(const char* tool, const char* args_json);
  // Through the plugin context's entry point when the plugin defines it, else like Execute.
  char* ExecuteWithContext(const char* tool, const char* args_json, const entropic_call_context_t* context);
  // True when the plugin defines the optional entry point of the plugin context.
  bool HasContext() const { return execute_with_context_fn_ != nullptr; }
  void Release(char* owned);
  int Configure(const char* config_json);
  int SetWorkingDir(const char* path);

  // Destroys the instance, then unloads the library. Idempotent.
  void Close();

  bool IsOpen() const { return server_ != nullptr; }
  const std::string& Name() const { return name_; }
  int ApiVersion() const { return api_version_; }

 private:
  void* handle_ = nullptr;
  entropic_mcp_server_t server_ = nullptr;
  std::string name_;
  int api_version_ = 0;

  decltype(&entropic_plugin_api_version) api_version_fn_ = nullptr;
  decltype(&entropic_create_server) create_fn_ = nullptr;
  decltype(&entropic_mcp_server_name) name_fn_ = nullptr;
  decltype(&entropic_mcp_server_list_tools) list_tools_fn_ = nullptr;
  decltype(&entropic_mcp_server_execute) execute_fn_ = nullptr;
  decltype(&entropic_mcp_server_configure) configure_fn_ = nullptr;
  decltype(&entropic_mcp_server_set_working_dir) set_working_dir_fn_ = nullptr;
  decltype(&entropic_mcp_server_destroy) destroy_fn_ = nullptr;
  decltype(&entropic_free) free_fn_ = nullptr;
  decltype(&entropic_mcp_server_execute_with_context) execute_with_context_fn_ = nullptr;
};

}  // namespace entropic_loader

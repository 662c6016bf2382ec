// Entry of the in-process addon: `setErrorClass(PluginError)` once, then `NativePlugin` instances.
#include <entropic/interfaces/i_mcp_server.h>
#include <napi.h>

#include <string>

#include "abi_tables.h"
#include "native_plugin.h"
#include "plugin_error.h"

namespace {

void SetErrorClassJs(const Napi::CallbackInfo& info) {
  if (!info[0].IsFunction()) throw Napi::TypeError::New(info.Env(), "setErrorClass needs a class");
  entropic_loader::SetErrorClass(info.Env(), info[0].As<Napi::Function>());
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  std::string mismatch = entropic_loader::CheckEntryPointTable();
  if (!mismatch.empty()) throw Napi::Error::New(env, "entropic_loader was built with inconsistent ABI tables: " + mismatch);
  exports.Set("setErrorClass", Napi::Function::New<SetErrorClassJs>(env, "setErrorClass"));
  exports.Set("NativePlugin", entropic_loader::NativePlugin::Define(env));
  exports.Set("apiVersion", Napi::Number::New(env, ENTROPIC_MCP_PLUGIN_API_VERSION));
  return exports;
}

}  // namespace

NODE_API_MODULE(entropic_loader, Init)

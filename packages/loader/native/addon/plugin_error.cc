// Builds PluginError instances for native failures (see plugin_error.h).
#include "plugin_error.h"

#include "abi_tables.h"

namespace entropic_loader {

namespace {

struct AddonData {
  Napi::FunctionReference error_class;
};

AddonData* DataOf(Napi::Env env) {
  AddonData* data = env.GetInstanceData<AddonData>();
  if (data == nullptr) {
    data = new AddonData();
    env.SetInstanceData(data);  // deleted by Node when the environment goes away
  }
  return data;
}

}  // namespace

void SetErrorClass(Napi::Env env, Napi::Function error_class) {
  DataOf(env)->error_class = Napi::Persistent(error_class);
}

Napi::Value MakePluginError(Napi::Env env, int value, const std::string& message, const ErrorDetails& details) {
  const char* code = ErrorName(value);
  AddonData* data = DataOf(env);
  if (data->error_class.IsEmpty()) {
    // Only reachable if the package did not register its class: still say what happened.
    Napi::Error error = Napi::Error::New(env, message);
    error.Set("code", Napi::String::New(env, code));
    error.Set("errno", Napi::Number::New(env, value));
    error.Set("path", Napi::String::New(env, details.path));
    return error.Value();
  }
  Napi::Object options = Napi::Object::New(env);
  options.Set("path", Napi::String::New(env, details.path));
  if (!details.plugin.empty()) options.Set("plugin", Napi::String::New(env, details.plugin));
  options.Set("errno", Napi::Number::New(env, value));
  return data->error_class.New({Napi::String::New(env, code), Napi::String::New(env, message), options});
}

}  // namespace entropic_loader

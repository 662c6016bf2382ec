// Builds instances of the JS `PluginError` class, which the package hands to the
// addon once (`setErrorClass`) so native failures are real instances of it.
#pragma once

#include <napi.h>

#include <string>

namespace entropic_loader {

struct ErrorDetails {
  std::string path;
  std::string plugin;  // empty before the name is known
};

// Stores the class for this Node environment (the main thread or a worker).
void SetErrorClass(Napi::Env env, Napi::Function error_class);

// `new PluginError(<name of value>, message, { path, plugin, errno: value })`.
Napi::Value MakePluginError(Napi::Env env, int value, const std::string& message, const ErrorDetails& details);

}  // namespace entropic_loader

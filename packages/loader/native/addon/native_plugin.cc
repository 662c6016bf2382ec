// The JS class NativePlugin (see native_plugin.h).
#include "native_plugin.h"

#include <chrono>
#include <string>
#include <utility>

#include "plugin_error.h"
#include "plugin_instance.h"

namespace entropic_loader {

namespace {
// How long leaving Node (or collecting an instance) waits for a call already
// inside the plugin before leaving that thread behind.
constexpr std::chrono::milliseconds kShutdownGrace(2000);
}  // namespace

// State shared by the JS wrapper, the thread-safe function and the cleanup hook.
// It is deleted once both the wrapper and the thread-safe function are gone.
struct Core {
  napi_env env = nullptr;
  ErrorDetails details;
  PluginInstance* instance = nullptr;
  napi_threadsafe_function tsfn = nullptr;
  AnswerBuffer taken;
  bool tsfn_released = false;
  bool tsfn_finalized = false;
  bool hook_added = false;
  bool shut_down = false;
  int owners = 2;  // the wrapper and the thread-safe function
};

namespace {

void RemoveHook(Core* core);

void Drop(Core* core) {
  if (--core->owners > 0) return;
  RemoveHook(core);
  delete core->instance;  // null when its thread had to be left behind
  delete core;
}

void ReleaseTsfn(Core* core, napi_threadsafe_function_release_mode mode) {
  if (core->tsfn_released || core->tsfn_finalized) return;
  core->tsfn_released = true;
  napi_release_threadsafe_function(core->tsfn, mode);
}

// Stops the instance: queued jobs are dropped, a running call may finish within
// the grace period, then the instance is destroyed and the library unloaded.
void ShutDown(Core* core) {
  if (core->shut_down) return;
  core->shut_down = true;
  if (core->instance != nullptr) {
    core->instance->DisableWake();
    if (!core->instance->Shutdown(kShutdownGrace)) core->instance = nullptr;  // its thread still runs: leak it
  }
  ReleaseTsfn(core, napi_tsfn_abort);
}

void CleanupHook(void* arg) {
  auto* core = static_cast<Core*>(arg);
  core->hook_added = false;
  ShutDown(core);
}

void RemoveHook(Core* core) {
  if (!core->hook_added) return;
  core->hook_added = false;
  napi_remove_env_cleanup_hook(core->env, CleanupHook, core);
}

void Wake(void* context) {
  auto* core = static_cast<Core*>(context);
  napi_call_threadsafe_function(core->tsfn, nullptr, napi_tsfn_nonblocking);
}

void FinalizeTsfn(napi_env, void* data, void*) {
  auto* core = static_cast<Core*>(data);
  if (core->instance != nullptr) core->instance->DisableWake();
  core->tsfn_finalized = true;
  Drop(core);
}

// The answer frames in core->taken as one Buffer for JS.
Napi::Buffer<char> FramesOf(Napi::Env env, Core* core) {
  Napi::Buffer<char> frames = Napi::Buffer<char>::Copy(env, core->taken.data(), core->taken.size());
  core->taken.clear();
  return frames;
}

// Runs on the JS thread: hands every finished answer to JS in one call. Written against the C API so that no
// C++ exception can leave it: while an environment shuts down (a worker ending) the calls below may fail, and
// then the answers are simply dropped. An exception thrown by the callback stays pending and Node reports it
// as an uncaught exception.
void DeliverAnswers(napi_env env, napi_value callback, void* context, void*) {
  if (env == nullptr) return;
  auto* core = static_cast<Core*>(context);
  if (core->instance == nullptr || core->shut_down) return;
  core->instance->TakeAnswers(core->taken);
  if (core->taken.size() == 0) return;
  napi_handle_scope scope;
  if (napi_open_handle_scope(env, &scope) != napi_ok) {
    core->taken.clear();
    return;
  }
  napi_value frames;
  napi_value undefined;
  void* copy;
  if (napi_create_buffer_copy(env, core->taken.size(), core->taken.data(), &copy, &frames) == napi_ok &&
      napi_get_undefined(env, &undefined) == napi_ok) {
    napi_call_function(env, undefined, callback, 1, &frames, nullptr);
  }
  core->taken.clear();
  napi_close_handle_scope(env, scope);
}

}  // namespace

Napi::Function NativePlugin::Define(Napi::Env env) {
  return DefineClass(env, "NativePlugin",
                     {
                         InstanceMethod<&NativePlugin::Submit>("submit"),
                         InstanceMethod<&NativePlugin::Cancel>("cancel"),
                         InstanceMethod<&NativePlugin::Collect>("collect"),
                         InstanceMethod<&NativePlugin::ExecuteSync>("executeSync"),
                         InstanceMethod<&NativePlugin::Ref>("ref"),
                         InstanceMethod<&NativePlugin::Unref>("unref"),
                         InstanceMethod<&NativePlugin::Shutdown>("shutdown"),
                     });
}

NativePlugin::NativePlugin(const Napi::CallbackInfo& info) : Napi::ObjectWrap<NativePlugin>(info) {
  Napi::Env env = info.Env();
  if (!info[0].IsString() || !info[1].IsFunction()) {
    throw Napi::TypeError::New(env, "NativePlugin(path, onAnswers) needs a string and a function");
  }
  auto* core = new Core();
  core->env = env;
  core->details.path = info[0].As<Napi::String>().Utf8Value();
  napi_status status = napi_create_threadsafe_function(
      env, info[1], nullptr, Napi::String::New(env, "entropic-plugin"), 0, 1, core, FinalizeTsfn, core, DeliverAnswers,
      &core->tsfn);
  if (status != napi_ok) {
    delete core;
    throw Napi::Error::New(env, "cannot create the completion channel of a plugin instance");
  }
  napi_unref_threadsafe_function(env, core->tsfn);
  core->instance = new PluginInstance(core->details.path, Wake, core);
  napi_add_env_cleanup_hook(env, CleanupHook, core);
  core->hook_added = true;
  core_ = core;
}

NativePlugin::~NativePlugin() {
  ShutDown(core_);
  Drop(core_);
}

// submit(text): a burst of wire requests (native/wire/wire.h), queued in order. One crossing and one
// wake-up for the whole burst.
Napi::Value NativePlugin::Submit(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsString()) throw Napi::TypeError::New(env, "submit(text) needs a string");
  if (core_->shut_down || core_->instance == nullptr) return Napi::Boolean::New(env, false);
  switch (core_->instance->Submit(info[0].As<Napi::String>().Utf8Value())) {
    case PluginInstance::SubmitResult::kQueued:
      return Napi::Boolean::New(env, true);
    case PluginInstance::SubmitResult::kClosing:
      return Napi::Boolean::New(env, false);
    default:
      throw Napi::RangeError::New(env, "submit(text): the text is not whole wire requests");
  }
}

Napi::Value NativePlugin::Cancel(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (core_->shut_down || core_->instance == nullptr) return Napi::Boolean::New(env, false);
  return Napi::Boolean::New(env, core_->instance->Cancel(info[0].As<Napi::Number>().Uint32Value()));
}

// collect(spinMicros): the answer frames finished so far as onAnswers would get them, waiting up to
// spinMicros (at most 1000) on this thread for the first one; undefined when none finished in time.
Napi::Value NativePlugin::Collect(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsNumber()) throw Napi::TypeError::New(env, "collect(spinMicros) needs a number");
  if (core_->shut_down || core_->instance == nullptr) return env.Undefined();
  int64_t micros = info[0].As<Napi::Number>().Int64Value();
  if (micros < 0) micros = 0;
  if (micros > 1000) micros = 1000;
  if (!core_->instance->AwaitAnswers(core_->taken, std::chrono::microseconds(micros))) return env.Undefined();
  return FramesOf(env, core_);
}

Napi::Value NativePlugin::ExecuteSync(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsString() || !info[1].IsString()) {
    throw Napi::TypeError::New(env, "executeSync(tool, argsJson) needs two strings");
  }
  std::string tool = info[0].As<Napi::String>().Utf8Value();
  std::string args = info[1].As<Napi::String>().Utf8Value();
  char* answer = nullptr;
  LoadFailure failure;
  bool ok = false;
  if (core_->shut_down || core_->instance == nullptr) {
    failure.value = ENTROPIC_ERROR_INVALID_STATE;
    failure.message = "the plugin " + core_->details.path + " is closed";
  } else {
    ok = core_->instance->ExecuteNow(tool.c_str(), args.c_str(), answer, failure);
  }
  if (!ok) {
    if (core_->instance != nullptr) core_->details.plugin = core_->instance->Name();
    throw Napi::Error(env, MakePluginError(env, failure.value, failure.message, core_->details));
  }
  if (answer == nullptr) return env.Null();
  Napi::String text = Napi::String::New(env, answer);
  core_->instance->Release(answer);
  return text;
}

void NativePlugin::Ref(const Napi::CallbackInfo& info) {
  if (!core_->tsfn_released && !core_->tsfn_finalized) napi_ref_threadsafe_function(info.Env(), core_->tsfn);
}

void NativePlugin::Unref(const Napi::CallbackInfo& info) {
  if (!core_->tsfn_released && !core_->tsfn_finalized) napi_unref_threadsafe_function(info.Env(), core_->tsfn);
}

void NativePlugin::Shutdown(const Napi::CallbackInfo&) {
  ShutDown(core_);
  RemoveHook(core_);
}

}  // namespace entropic_loader

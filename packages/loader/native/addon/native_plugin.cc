// The JS class NativePlugin (see native_plugin.h).
#include "native_plugin.h"

#include <chrono>
#include <string>
#include <utility>
#include <vector>

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
  std::vector<Outcome> batch;
  std::vector<Job> submitting;
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

Napi::Value PayloadOf(Napi::Env env, Core* core, Outcome& outcome) {
  switch (outcome.status) {
    case OutcomeStatus::kText:
      if (outcome.kind == JobKind::kLoad) {
        core->details.plugin = outcome.text;
        Napi::Array loaded = Napi::Array::New(env, 2);
        loaded.Set(0u, Napi::String::New(env, outcome.text));
        loaded.Set(1u, Napi::Number::New(env, outcome.value));
        return loaded;
      }
      return Napi::String::New(env, outcome.text);
    case OutcomeStatus::kNull:
      return env.Null();
    case OutcomeStatus::kDone:
      return env.Undefined();
    case OutcomeStatus::kFailed:
      return MakePluginError(env, outcome.value, outcome.text, core->details);
  }
  return env.Undefined();
}

// The outcomes in core->batch as the flat (id, payload) list JS receives; joins the thread after a destroy.
Napi::Array ListOf(Napi::Env env, Core* core) {
  bool destroyed = false;
  for (const Outcome& outcome : core->batch) destroyed = destroyed || outcome.kind == JobKind::kDestroy;
  if (destroyed) {
    // The thread left its loop right after the destroy: join it and let the function go.
    core->shut_down = true;
    core->instance->Join();
    ReleaseTsfn(core, napi_tsfn_release);
    RemoveHook(core);
  }
  Napi::Array list = Napi::Array::New(env, core->batch.size() * 2);
  uint32_t at = 0;
  for (Outcome& outcome : core->batch) {
    list.Set(at++, Napi::Number::New(env, outcome.id));
    list.Set(at++, PayloadOf(env, core, outcome));
  }
  core->batch.clear();
  return list;
}

// Runs on the JS thread: hands every finished outcome to JS in one call.
void DeliverBatch(napi_env raw_env, napi_value callback, void* context, void*) {
  if (raw_env == nullptr) return;
  auto* core = static_cast<Core*>(context);
  if (core->instance == nullptr) return;
  Napi::Env env(raw_env);
  Napi::HandleScope scope(env);
  core->instance->TakeOutcomes(core->batch);
  if (core->batch.empty()) return;
  try {
    Napi::Function(env, callback).Call({ListOf(env, core)});
  } catch (const Napi::Error& error) {
    core->batch.clear();
    error.ThrowAsJavaScriptException();  // reported by Node as an uncaught exception
  }
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
    throw Napi::TypeError::New(env, "NativePlugin(path, onBatch) needs a string and a function");
  }
  auto* core = new Core();
  core->env = env;
  core->details.path = info[0].As<Napi::String>().Utf8Value();
  napi_status status = napi_create_threadsafe_function(
      env, info[1], nullptr, Napi::String::New(env, "entropic-plugin"), 0, 1, core, FinalizeTsfn, core, DeliverBatch,
      &core->tsfn);
  if (status != napi_ok) {
    delete core;
    throw Napi::Error::New(env, "cannot create the completion channel of a plugin instance");
  }
  napi_unref_threadsafe_function(env, core->tsfn);
  core->instance = new PluginInstance(Wake, core);
  napi_add_env_cleanup_hook(env, CleanupHook, core);
  core->hook_added = true;
  core_ = core;
}

NativePlugin::~NativePlugin() {
  ShutDown(core_);
  Drop(core_);
}

// submit(heads, text): `heads` a Uint32Array of (id, kind) pairs, `text` each job's
// two strings, each ended by a NUL (no argument can hold one: the TS side refuses
// them and JSON escapes them). One crossing and one wake-up for a whole burst.
Napi::Value NativePlugin::Submit(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsTypedArray() || info[0].As<Napi::TypedArray>().TypedArrayType() != napi_uint32_array ||
      !info[1].IsString()) {
    throw Napi::TypeError::New(env, "submit(heads, text) needs a Uint32Array and a string");
  }
  if (core_->shut_down || core_->instance == nullptr) return Napi::Boolean::New(env, false);
  Napi::Uint32Array heads = info[0].As<Napi::Uint32Array>();
  std::string text = info[1].As<Napi::String>().Utf8Value();
  size_t count = heads.ElementLength() / 2;
  std::vector<Job>& jobs = core_->submitting;
  jobs.clear();
  jobs.resize(count);
  size_t at = 0;
  for (size_t i = 0; i < count; ++i) {
    Job& job = jobs[i];
    job.id = heads[2 * i];
    uint32_t kind = heads[2 * i + 1];
    if (kind > static_cast<uint32_t>(JobKind::kDestroy)) {
      throw Napi::RangeError::New(env, "unknown job kind " + std::to_string(kind));
    }
    job.kind = static_cast<JobKind>(kind);
    for (std::string* part : {&job.first, &job.second}) {
      size_t end = text.find('\0', at);
      if (end == std::string::npos) throw Napi::RangeError::New(env, "submit text holds fewer strings than jobs");
      part->assign(text, at, end - at);
      at = end + 1;
    }
  }
  return Napi::Boolean::New(env, core_->instance->Submit(jobs));
}

Napi::Value NativePlugin::Cancel(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (core_->shut_down || core_->instance == nullptr) return Napi::Boolean::New(env, false);
  return Napi::Boolean::New(env, core_->instance->Cancel(info[0].As<Napi::Number>().Uint32Value()));
}

// collect(spinMicros): the outcomes finished so far as the list onBatch would get, waiting up to
// spinMicros (at most 1000) on this thread for the first one; undefined when none finished in time.
Napi::Value NativePlugin::Collect(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsNumber()) throw Napi::TypeError::New(env, "collect(spinMicros) needs a number");
  if (core_->shut_down || core_->instance == nullptr) return env.Undefined();
  int64_t micros = info[0].As<Napi::Number>().Int64Value();
  if (micros < 0) micros = 0;
  if (micros > 1000) micros = 1000;
  if (!core_->instance->AwaitOutcomes(core_->batch, std::chrono::microseconds(micros))) return env.Undefined();
  return ListOf(env, core_);
}

Napi::Value NativePlugin::ExecuteSync(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsString() || !info[1].IsString()) {
    throw Napi::TypeError::New(env, "executeSync(tool, argsJson) needs two strings");
  }
  std::string tool = info[0].As<Napi::String>().Utf8Value();
  std::string args = info[1].As<Napi::String>().Utf8Value();
  PluginText answer;
  LoadFailure failure;
  bool ok = false;
  if (core_->shut_down || core_->instance == nullptr) {
    failure.value = ENTROPIC_ERROR_INVALID_STATE;
    failure.message = "the plugin " + core_->details.path + " is closed";
  } else {
    ok = core_->instance->ExecuteNow(tool.c_str(), args.c_str(), answer, failure);
  }
  if (!ok) throw Napi::Error(env, MakePluginError(env, failure.value, failure.message, core_->details));
  if (!answer.present) return env.Null();
  return Napi::String::New(env, answer.text);
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

// The JS class `NativePlugin`: one plugin instance on its own thread.
//
//   new NativePlugin(path, onBatch)       starts the thread (the caller then submits the load job)
//   submit(heads, text)                   queues jobs in order: (id, kind) pairs in a
//                                         Uint32Array, their two strings NUL-ended in
//                                         `text`; false once the instance is closing
//   cancel(id)                            drops a job that has not started
//   collect(spinMicros)                   the finished jobs' list now, spinning up to spinMicros
//                                         for the first one (undefined if none); see CallTable
//   executeSync(tool, argsJson)           runs execute on the JS thread after every queued job
//   ref() / unref()                       keep the event loop alive while calls are in flight
//   shutdown()                            drops queued jobs, destroys the instance and unloads now
//                                         (what the environment cleanup hook does; `process.exit()`
//                                         skips those hooks, so the package calls this on 'exit')
//
// Finished jobs reach `onBatch(list)` through one thread-safe function per
// instance, as a flat list of (id, payload) pairs. The payload is the answer
// text, null for a NULL answer, undefined for a call without a value,
// [name, apiVersion] for a load, or a PluginError.
#pragma once

#include <napi.h>

namespace entropic_loader {

struct Core;

class NativePlugin : public Napi::ObjectWrap<NativePlugin> {
 public:
  static Napi::Function Define(Napi::Env env);

  explicit NativePlugin(const Napi::CallbackInfo& info);
  ~NativePlugin() override;

 private:
  Napi::Value Submit(const Napi::CallbackInfo& info);
  Napi::Value Cancel(const Napi::CallbackInfo& info);
  Napi::Value Collect(const Napi::CallbackInfo& info);
  Napi::Value ExecuteSync(const Napi::CallbackInfo& info);
  void Ref(const Napi::CallbackInfo& info);
  void Unref(const Napi::CallbackInfo& info);
  void Shutdown(const Napi::CallbackInfo& info);

  Core* core_ = nullptr;
};

}  // namespace entropic_loader

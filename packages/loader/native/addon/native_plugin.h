// The JS class `NativePlugin`: one plugin instance on its own thread, speaking the plugin wire
// (native/wire/wire.h) as the host process does.
//
//   new NativePlugin(path, onAnswers)     starts the thread, which loads the plugin and answers id 0
//                                         with READY or FAILED
//   submit(text)                          queues a burst of wire requests, in order; false once the
//                                         instance is closing
//   cancel(id)                            drops a request that has not started
//   collect(spinMicros)                   the answer frames finished so far, spinning up to spinMicros
//                                         for the first one (undefined if none came)
//   executeSync(tool, argsJson)           runs execute on the JS thread after every queued request
//   ref() / unref()                       keep the event loop alive while calls are in flight
//   shutdown()                            drops queued requests, destroys the instance and unloads now,
//                                         and lets the thread go (after the close was answered, or at
//                                         exit: `process.exit()` skips the environment cleanup hooks, so
//                                         the package calls this on 'exit')
//
// Finished answers reach `onAnswers(frames)` through one thread-safe function per instance, as a Buffer of
// wire answer frames.
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

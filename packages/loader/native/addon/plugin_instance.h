// One loaded plugin instance and the thread that owns it. The thread loads the library, then serves the
// requests of the plugin wire (native/wire/wire.h) one at a time, in order, so calls into the instance never
// overlap while other instances (other threads) run in parallel; the JS thread and the libuv threadpool never
// wait on a plugin. It speaks the wire exactly as the host process does: requests come in as bursts of wire
// text, answers go out as wire frames. Finished answers collect in one buffer; the `wake` callback fires once
// when that buffer becomes non-empty, and the JS side takes everything in it in one go.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "context.h"
#include "plugin_library.h"
#include "spin.h"
#include "wire.h"

namespace entropic_loader {

// One request waiting for the thread; its parts point into the burst of text it came in.
struct Job {
  wire_request_t request;
  std::shared_ptr<const std::string> burst;
  bool spin_after = false;  // the last of a burst of lone calls: stay awake a moment for the next (spin.h)
};

// The answer frames taken from an instance: a byte buffer that keeps its memory from one take to the next.
class AnswerBuffer {
 public:
  AnswerBuffer() = default;
  AnswerBuffer(const AnswerBuffer&) = delete;
  AnswerBuffer& operator=(const AnswerBuffer&) = delete;
  ~AnswerBuffer() { wire_buf_free(&buf_); }

  const char* data() const { return buf_.data; }
  size_t size() const { return buf_.len; }
  void clear() { buf_.len = 0; }
  wire_buf_t* raw() { return &buf_; }

 private:
  wire_buf_t buf_ = {nullptr, 0, 0};
};

class PluginInstance {
 public:
  using WakeFn = void (*)(void* context);

  // Starts the thread; it loads `path` and publishes the READY or FAILED frame (id 0) before anything else.
  PluginInstance(std::string path, WakeFn wake, void* wake_context);
  PluginInstance(const PluginInstance&) = delete;
  PluginInstance& operator=(const PluginInstance&) = delete;
  ~PluginInstance();

  enum class SubmitResult { kQueued, kClosing, kMalformed };
  // Queues every request of one burst of wire text, in order. kClosing (nothing queued) once a close was queued
  // earlier or the instance shut down; kMalformed (nothing queued) when the text is not whole requests.
  SubmitResult Submit(std::string&& burst);
  // Drops a request that has not started yet (true); when it is the one running, flags its plugin context as
  // cancelled (false: it answers when the plugin returns); false as well when it already ran.
  bool Cancel(uint32_t id);
  // Moves every answer frame published so far into `out` (cleared first) and re-arms the wake.
  void TakeAnswers(AnswerBuffer& out);
  // Like TakeAnswers, but when nothing has finished yet, waits up to `budget` for an answer by spinning on the
  // calling thread, with the wake held back meanwhile (the caller collects instead of being woken). True when
  // `out` holds something.
  bool AwaitAnswers(AnswerBuffer& out, std::chrono::nanoseconds budget);
  // After this the thread never calls `wake` again (the JS side is gone).
  void DisableWake();

  // Runs execute on the calling thread once every queued request has finished. On success `answer` is the
  // plugin's string (hand it back with Release); false with `failure` set when the instance is not usable.
  bool ExecuteNow(const char* tool, const char* args_json, char*& answer, LoadFailure& failure);
  void Release(char* answer) { library_.Release(answer); }
  // The plugin's name once loaded (empty before, or when the load failed).
  std::string Name() {
    std::lock_guard<std::mutex> lock(mutex_);
    return library_.Name();
  }

  // True once the thread has left its loop (after a close or a shutdown).
  bool Finished();
  void Join();
  // Drops queued requests, lets the running call finish (waiting at most `grace`), destroys the instance and
  // unloads the library. Returns false if the thread was still inside the plugin after `grace` and had to be
  // left behind.
  bool Shutdown(std::chrono::milliseconds grace);

 private:
  void Run();
  // Serves one request, writing its answer into `out`; false after a close.
  bool Serve(const wire_request_t& request, wire_buf_t* out);
  // Publishes the frames in `pending` (mutex_ held); true when the caller must wake the JS side.
  bool Publish(wire_buf_t* pending);
  void Wake();
  // The sink of the running call's context (context.h): publishes what the plugin reported, at once.
  static void EmitFrames(void* self, const wire_buf_t* frames);
  // After a burst of lone calls: looks for the next burst awake for a moment (mutex_ not held).
  void StayAwake();

  WakeFn wake_;
  void* wake_context_;
  PluginLibrary library_;
  const std::string path_;

  std::mutex wake_mutex_;  // guards wake_enabled_ and each wake call
  std::mutex mutex_;
  std::condition_variable work_ready_;  // the thread waits here for requests
  std::condition_variable idle_;        // the synchronous path and shutdown wait here
  std::deque<Job> queue_;
  wire_buf_t ready_ = {nullptr, 0, 0};  // published answer frames, under mutex_
  std::atomic<uint64_t> published_{0};  // answers published so far (AwaitAnswers spins on it)
  std::atomic<uint64_t> submitted_{0};  // bursts queued or shutdowns asked so far (the thread's spin watches it)
  const long spin_ns_ = wire_spin_window_ns();
  wire_spin_t spin_ = {0, 0};  // used by the instance thread only
  wire_call_t call_;           // the plugin context of the running call (context.h)
  uint32_t running_id_ = 0;    // the request running, under mutex_ (0: none)
  bool wake_armed_ = true;    // under mutex_
  bool wake_enabled_ = true;  // under wake_mutex_
  bool thread_waiting_ = false;
  bool running_ = false;
  bool closing_ = false;
  bool stop_ = false;
  bool finished_ = false;
  std::thread thread_;
};

}  // namespace entropic_loader

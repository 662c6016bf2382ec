// One loaded plugin instance and the thread that owns it. Jobs queue up and run
// one at a time on that thread, so calls into the instance never overlap while
// other instances (other threads) run in parallel; the JS thread and the libuv
// threadpool never wait on a plugin. Finished jobs collect in an outcome list;
// the `wake` callback fires once when that list becomes non-empty, and the JS
// side drains everything that finished in one go.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "plugin_library.h"

namespace entropic_loader {

enum class JobKind : int32_t {
  kLoad = 0,
  kListTools = 1,
  kExecute = 2,
  kConfigure = 3,
  kSetWorkingDir = 4,
  kDestroy = 5,
};

struct Job {
  uint32_t id = 0;
  JobKind kind = JobKind::kLoad;
  std::string first;   // path, tool name, config JSON or directory
  std::string second;  // arguments JSON for execute
};

enum class OutcomeStatus : int32_t {
  kText = 0,    // `text` is the answer (the plugin name for a load)
  kNull = 1,    // the plugin answered NULL
  kDone = 2,    // finished without a value
  kFailed = 3,  // `value` is an entropic_error_t, `text` the message
};

struct Outcome {
  uint32_t id = 0;
  JobKind kind = JobKind::kLoad;
  OutcomeStatus status = OutcomeStatus::kDone;
  int32_t value = 0;  // the API version for a load
  std::string text;
};

class PluginInstance {
 public:
  using WakeFn = void (*)(void* context);

  PluginInstance(WakeFn wake, void* wake_context);
  PluginInstance(const PluginInstance&) = delete;
  PluginInstance& operator=(const PluginInstance&) = delete;
  ~PluginInstance();

  // Queues jobs in order; false (and nothing queued) once the instance is closing
  // (a destroy was queued earlier or it shut down).
  bool Submit(std::vector<Job>& jobs);
  // Drops a job that has not started yet; false if it already ran or is running.
  bool Cancel(uint32_t id);
  // Moves every finished outcome into `out` (which is cleared first) and re-arms the wake.
  void TakeOutcomes(std::vector<Outcome>& out);
  // Like TakeOutcomes, but when nothing has finished yet, waits up to `budget` for an outcome by spinning
  // on the calling thread, with the wake held back meanwhile (the caller collects instead of being woken).
  // True when `out` holds something.
  bool AwaitOutcomes(std::vector<Outcome>& out, std::chrono::nanoseconds budget);
  // After this the thread never calls `wake` again (the JS side is gone).
  void DisableWake();

  // Runs execute on the calling thread once every queued job has finished.
  // Returns false with `failure` set when the instance is not usable.
  bool ExecuteNow(const char* tool, const char* args_json, PluginText& answer, LoadFailure& failure);

  // True once the thread has left its loop (after a destroy job or a shutdown).
  bool Finished();
  void Join();
  // Drops queued jobs, lets the running call finish (waiting at most `grace`),
  // destroys the instance and unloads the library. Returns false if the thread
  // was still inside the plugin after `grace` and had to be left behind.
  bool Shutdown(std::chrono::milliseconds grace);

 private:
  void Run();
  Outcome RunJob(const Job& job);
  // Adds an outcome (mutex_ held); true when the caller must wake the JS side.
  bool Publish(Outcome&& outcome);
  void Wake();

  WakeFn wake_;
  void* wake_context_;
  PluginLibrary library_;
  std::string path_;

  std::mutex wake_mutex_;  // guards wake_enabled_ and each wake call
  std::mutex mutex_;
  std::condition_variable work_ready_;  // the thread waits here for jobs
  std::condition_variable idle_;        // the synchronous path and shutdown wait here
  std::deque<Job> queue_;
  std::vector<Outcome> outcomes_;
  std::atomic<uint64_t> published_{0};  // outcomes published so far (AwaitOutcomes spins on it)
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

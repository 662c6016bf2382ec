// One plugin instance and the thread that owns it (see plugin_instance.h).
#include "plugin_instance.h"

#include <exception>
#include <utility>

#include "abi_tables.h"

namespace entropic_loader {

namespace {

void SetText(Outcome& out, PluginText&& answer) {
  out.status = answer.present ? OutcomeStatus::kText : OutcomeStatus::kNull;
  out.text = std::move(answer.text);
}

void SetFailure(Outcome& out, int value, std::string message) {
  out.status = OutcomeStatus::kFailed;
  out.value = value;
  out.text = std::move(message);
}

void SetReturnCode(Outcome& out, int code, const char* entry_point, const std::string& plugin) {
  if (code == ENTROPIC_OK) {
    out.status = OutcomeStatus::kDone;
    return;
  }
  SetFailure(out, code,
             std::string(entry_point) + "() of plugin " + plugin + " returned " + ErrorName(code) + " (" +
                 std::to_string(code) + ")");
}

// Tells the core this thread is spinning (a pause on x86, a yield hint on Arm).
inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

}  // namespace

PluginInstance::PluginInstance(WakeFn wake, void* wake_context) : wake_(wake), wake_context_(wake_context) {
  thread_ = std::thread(&PluginInstance::Run, this);
}

PluginInstance::~PluginInstance() {
  // The owner deletes an instance only after its thread was joined (or never
  // deletes one whose thread had to be left behind); this is the safety net.
  if (thread_.joinable()) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
      queue_.clear();
    }
    work_ready_.notify_all();
    thread_.join();
  }
}

bool PluginInstance::Submit(std::vector<Job>& jobs) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (closing_ || stop_) return false;
  for (Job& job : jobs) {
    if (job.kind == JobKind::kDestroy) closing_ = true;
    queue_.push_back(std::move(job));
  }
  // One wake-up per batch: whoever wakes the thread clears the flag, so later
  // batches arriving before it runs do not make another system call.
  bool notify = thread_waiting_;
  thread_waiting_ = false;
  lock.unlock();
  if (notify) work_ready_.notify_one();
  return true;
}

bool PluginInstance::Cancel(uint32_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = queue_.begin(); it != queue_.end(); ++it) {
    if (it->id == id && it->kind != JobKind::kDestroy) {
      queue_.erase(it);
      if (queue_.empty() && !running_) idle_.notify_all();
      return true;
    }
  }
  return false;
}

void PluginInstance::TakeOutcomes(std::vector<Outcome>& out) {
  out.clear();
  std::lock_guard<std::mutex> lock(mutex_);
  out.swap(outcomes_);
  wake_armed_ = true;
}

void PluginInstance::DisableWake() {
  std::lock_guard<std::mutex> wake_lock(wake_mutex_);
  wake_enabled_ = false;
}

bool PluginInstance::AwaitOutcomes(std::vector<Outcome>& out, std::chrono::nanoseconds budget) {
  out.clear();
  uint64_t seen;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!outcomes_.empty()) {
      out.swap(outcomes_);
      wake_armed_ = true;
      return true;
    }
    wake_armed_ = false;  // the next outcome is collected here, not announced
    seen = published_.load(std::memory_order_relaxed);
  }
  auto until = std::chrono::steady_clock::now() + budget;
  for (unsigned spins = 1; published_.load(std::memory_order_acquire) == seen; ++spins) {
    if ((spins & 63) == 0 && std::chrono::steady_clock::now() >= until) break;
    CpuRelax();
  }
  std::lock_guard<std::mutex> lock(mutex_);
  out.swap(outcomes_);
  wake_armed_ = true;  // what finishes from now on wakes the JS side as usual
  return !out.empty();
}

bool PluginInstance::Publish(Outcome&& outcome) {
  outcomes_.push_back(std::move(outcome));
  published_.fetch_add(1, std::memory_order_release);
  if (!wake_armed_) return false;
  wake_armed_ = false;
  return true;
}

void PluginInstance::Wake() {
  // Outside mutex_: the JS thread never waits behind this system call. wake_mutex_
  // only orders it against DisableWake, after which the JS side may be gone.
  std::lock_guard<std::mutex> wake_lock(wake_mutex_);
  if (wake_enabled_) wake_(wake_context_);
}

void PluginInstance::Run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    while (!stop_ && (queue_.empty() || running_)) {
      thread_waiting_ = true;
      work_ready_.wait(lock);
    }
    thread_waiting_ = false;
    if (stop_) break;
    Job job = std::move(queue_.front());
    queue_.pop_front();
    running_ = true;
    lock.unlock();
    Outcome outcome = RunJob(job);
    lock.lock();
    running_ = false;
    bool wake = Publish(std::move(outcome));
    if (queue_.empty()) idle_.notify_all();
    if (wake) {
      lock.unlock();
      Wake();
      lock.lock();
    }
    if (job.kind == JobKind::kDestroy) break;
  }
  lock.unlock();
  library_.Close();
  lock.lock();
  finished_ = true;
  idle_.notify_all();
}

Outcome PluginInstance::RunJob(const Job& job) {
  Outcome out;
  out.id = job.id;
  out.kind = job.kind;
  if (job.kind != JobKind::kLoad && job.kind != JobKind::kDestroy && !library_.IsOpen()) {
    SetFailure(out, ENTROPIC_ERROR_INVALID_STATE, "the plugin " + path_ + " is not loaded");
    return out;
  }
  try {
    switch (job.kind) {
      case JobKind::kLoad: {
        path_ = job.first;
        LoadFailure failure;
        if (library_.Open(job.first, failure)) {
          out.status = OutcomeStatus::kText;
          out.text = library_.Name();
          out.value = library_.ApiVersion();
        } else {
          SetFailure(out, failure.value, std::move(failure.message));
        }
        break;
      }
      case JobKind::kListTools:
        SetText(out, library_.ListTools());
        break;
      case JobKind::kExecute:
        SetText(out, library_.Execute(job.first.c_str(), job.second.c_str()));
        break;
      case JobKind::kConfigure:
        SetReturnCode(out, library_.Configure(job.first.c_str()), "entropic_mcp_server_configure", library_.Name());
        break;
      case JobKind::kSetWorkingDir:
        SetReturnCode(out, library_.SetWorkingDir(job.first.c_str()), "entropic_mcp_server_set_working_dir",
                      library_.Name());
        break;
      case JobKind::kDestroy:
        library_.Close();
        out.status = OutcomeStatus::kDone;
        break;
    }
  } catch (const std::exception& error) {
    SetFailure(out, ENTROPIC_ERROR_INTERNAL,
               "plugin " + path_ + " let a C++ exception escape a C entry point: " + error.what());
  } catch (...) {
    SetFailure(out, ENTROPIC_ERROR_INTERNAL, "plugin " + path_ + " let an exception escape a C entry point");
  }
  return out;
}

bool PluginInstance::ExecuteNow(const char* tool, const char* args_json, PluginText& answer, LoadFailure& failure) {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [this] { return finished_ || (queue_.empty() && !running_); });
  if (closing_ || stop_ || finished_ || !library_.IsOpen()) {
    failure.value = ENTROPIC_ERROR_INVALID_STATE;
    failure.message = closing_ || finished_ ? "the plugin " + path_ + " is closed"
                                            : "the plugin " + path_ + " is not loaded";
    return false;
  }
  running_ = true;
  lock.unlock();
  bool ok = true;
  try {
    answer = library_.Execute(tool, args_json);
  } catch (...) {
    ok = false;
    failure.value = ENTROPIC_ERROR_INTERNAL;
    failure.message = "plugin " + path_ + " let an exception escape entropic_mcp_server_execute";
  }
  lock.lock();
  running_ = false;
  bool notify = !queue_.empty() && thread_waiting_;
  if (notify) thread_waiting_ = false;
  lock.unlock();
  if (notify) work_ready_.notify_one();
  return ok;
}

bool PluginInstance::Finished() {
  std::lock_guard<std::mutex> lock(mutex_);
  return finished_;
}

void PluginInstance::Join() {
  if (thread_.joinable()) thread_.join();
}

bool PluginInstance::Shutdown(std::chrono::milliseconds grace) {
  if (!thread_.joinable()) return true;
  std::unique_lock<std::mutex> lock(mutex_);
  stop_ = true;
  closing_ = true;
  queue_.clear();
  work_ready_.notify_all();
  bool done = idle_.wait_for(lock, grace, [this] { return finished_; });
  lock.unlock();
  if (done) {
    thread_.join();
    return true;
  }
  thread_.detach();
  return false;
}

}  // namespace entropic_loader

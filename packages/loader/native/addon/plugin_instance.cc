// One plugin instance and the thread that owns it (see plugin_instance.h).
#include "plugin_instance.h"

#include <pthread.h>

#include <cstring>
#include <exception>
#include <utility>

#include "abi_tables.h"

namespace entropic_loader {

namespace {

void PutFailure(wire_buf_t* out, uint32_t id, int value, const std::string& message) {
  wire_put_failure(out, id, value, ErrorName(value), message.c_str());
}

void PutReturnCode(wire_buf_t* out, uint32_t id, int code) { wire_put_code(out, id, WIRE_CODE, code, nullptr, 0); }

}  // namespace

PluginInstance::PluginInstance(std::string path, WakeFn wake, void* wake_context)
    : wake_(wake), wake_context_(wake_context), path_(std::move(path)) {
  wire_call_init(&call_);
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
  wire_buf_free(&ready_);
  wire_call_destroy(&call_);
}

PluginInstance::SubmitResult PluginInstance::Submit(std::string&& burst) {
  auto text = std::make_shared<const std::string>(std::move(burst));
  std::deque<Job> jobs;
  size_t at = 0;
  while (at < text->size()) {
    Job job;
    if (wire_next_request(text->data(), text->size(), &at, &job.request) != 1) return SubmitResult::kMalformed;
    if (job.request.op == WIRE_SPIN_HINT) {
      if (!jobs.empty()) jobs.back().spin_after = true;
      continue;
    }
    job.burst = text;
    jobs.push_back(std::move(job));
  }
  std::unique_lock<std::mutex> lock(mutex_);
  if (closing_ || stop_) return SubmitResult::kClosing;
  for (Job& job : jobs) {
    if (job.request.op == WIRE_CLOSE) closing_ = true;
    queue_.push_back(std::move(job));
  }
  // One wake-up per burst: whoever wakes the thread clears the flag, so later
  // bursts arriving before it runs do not make another system call.
  bool notify = thread_waiting_;
  thread_waiting_ = false;
  submitted_.fetch_add(1, std::memory_order_release);
  lock.unlock();
  if (notify) work_ready_.notify_one();
  return SubmitResult::kQueued;
}

bool PluginInstance::Cancel(uint32_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = queue_.begin(); it != queue_.end(); ++it) {
    if (it->request.id == id && it->request.op != WIRE_CLOSE) {
      queue_.erase(it);
      if (queue_.empty() && !running_) idle_.notify_all();
      return true;
    }
  }
  if (running_ && running_id_ == id) wire_call_cancel(&call_);
  return false;
}

void PluginInstance::EmitFrames(void* self, const wire_buf_t* frames) {
  auto* instance = static_cast<PluginInstance*>(self);
  bool wake = false;
  {
    std::lock_guard<std::mutex> lock(instance->mutex_);
    if (wire_reserve(&instance->ready_, frames->len) != 0) return;
    std::memcpy(instance->ready_.data + instance->ready_.len, frames->data, frames->len);
    instance->ready_.len += frames->len;
    instance->published_.fetch_add(1, std::memory_order_release);
    if (instance->wake_armed_) {
      instance->wake_armed_ = false;
      wake = true;
    }
  }
  if (wake) instance->Wake();
}

void PluginInstance::TakeAnswers(AnswerBuffer& out) {
  out.clear();
  std::lock_guard<std::mutex> lock(mutex_);
  std::swap(*out.raw(), ready_);
  wake_armed_ = true;
}

void PluginInstance::DisableWake() {
  std::lock_guard<std::mutex> wake_lock(wake_mutex_);
  wake_enabled_ = false;
}

bool PluginInstance::AwaitAnswers(AnswerBuffer& out, std::chrono::nanoseconds budget) {
  out.clear();
  uint64_t seen;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (ready_.len > 0) {
      std::swap(*out.raw(), ready_);
      wake_armed_ = true;
      return true;
    }
    wake_armed_ = false;  // the next answer is collected here, not announced
    seen = published_.load(std::memory_order_relaxed);
  }
  auto until = std::chrono::steady_clock::now() + budget;
  // Yielding (rather than a pause) lets the instance thread have this core when the machine is busy: on a
  // loaded machine a spinning caller must not stand between the plugin and the CPU it needs.
  while (published_.load(std::memory_order_acquire) == seen) {
    if (std::chrono::steady_clock::now() >= until) break;
    std::this_thread::yield();
  }
  std::lock_guard<std::mutex> lock(mutex_);
  std::swap(*out.raw(), ready_);
  wake_armed_ = true;  // what finishes from now on wakes the JS side as usual
  return out.size() > 0;
}

bool PluginInstance::Publish(wire_buf_t* pending) {
  if (ready_.len == 0) {
    std::swap(ready_, *pending);  // the usual case: no copy
  } else if (wire_reserve(&ready_, pending->len) == 0) {
    std::memcpy(ready_.data + ready_.len, pending->data, pending->len);
    ready_.len += pending->len;
  }
  pending->len = 0;
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

namespace {
struct Watch {
  const std::atomic<uint64_t>* counter;
  uint64_t seen;
};
int Changed(void* arg) {
  auto* watch = static_cast<Watch*>(arg);
  return watch->counter->load(std::memory_order_acquire) != watch->seen;
}
}  // namespace

void PluginInstance::StayAwake() {
  Watch watch{&submitted_, submitted_.load(std::memory_order_acquire)};
  wire_spin(&spin_, spin_ns_, Changed, &watch);
}

void PluginInstance::Run() {
  pthread_setname_np(pthread_self(), "entropic-plugin");  // how `top -H` and debuggers show it
  // The answers of this thread are written here, outside the lock, then published in one step.
  wire_buf_t pending = {nullptr, 0, 0};
  LoadFailure failure;
  if (library_.Open(path_, failure)) {
    wire_put_ready(&pending, library_.ApiVersion(), library_.Name().c_str(),
                   library_.HasContext() ? WIRE_FEATURE_CONTEXT : 0u);
  } else {
    PutFailure(&pending, 0, failure.value, failure.message);
  }
  std::unique_lock<std::mutex> lock(mutex_);
  bool wake = Publish(&pending);
  bool stay_awake = false;
  for (;;) {
    if (wake || (stay_awake && queue_.empty())) {
      lock.unlock();
      if (wake) Wake();
      if (stay_awake) StayAwake();
      wake = false;
      lock.lock();
    }
    while (!stop_ && (queue_.empty() || running_)) {
      thread_waiting_ = true;
      work_ready_.wait(lock);
    }
    thread_waiting_ = false;
    if (stop_) break;
    Job job = std::move(queue_.front());
    queue_.pop_front();
    running_ = true;
    running_id_ = job.request.id;
    wire_call_arm(&call_);  // under mutex_: a Cancel from now on is for this call
    lock.unlock();
    bool more = Serve(job.request, &pending);
    stay_awake = job.spin_after;
    job.burst.reset();
    lock.lock();
    running_ = false;
    running_id_ = 0;
    wake = Publish(&pending);
    if (queue_.empty()) idle_.notify_all();
    if (!more) break;
  }
  if (wake) {
    lock.unlock();
    Wake();
    lock.lock();
  }
  lock.unlock();
  library_.Close();
  wire_buf_free(&pending);
  lock.lock();
  finished_ = true;
  idle_.notify_all();
}

bool PluginInstance::Serve(const wire_request_t& r, wire_buf_t* out) {
  if (r.op == WIRE_CLOSE) {
    library_.Close();
    PutReturnCode(out, r.id, 0);
    return false;
  }
  if (!library_.IsOpen()) {
    PutFailure(out, r.id, ENTROPIC_ERROR_INVALID_STATE, "the plugin " + path_ + " is not loaded");
    return true;
  }
  try {
    char* text;
    switch (r.op) {
      case WIRE_LIST_TOOLS:
        text = library_.ListTools();
        wire_put_text(out, r.id, text);
        library_.Release(text);
        break;
      case WIRE_EXECUTE:
        text = library_.Execute(r.parts[0], r.parts[1]);
        wire_put_answer(out, r.id, text);
        library_.Release(text);
        break;
      case WIRE_EXECUTE_CONTEXT: {
        const wire_sink_t sink = {&PluginInstance::EmitFrames, nullptr, this};
        const entropic_call_context_t* context = wire_call_begin(&call_, r.id, r.parts[2], &sink);
        try {
          text = library_.ExecuteWithContext(r.parts[0], r.parts[1], context);
        } catch (...) {
          wire_call_end(&call_, out);
          throw;
        }
        wire_call_end(&call_, out);  // the last progress report and the structured result, before the answer
        wire_put_answer(out, r.id, text);
        library_.Release(text);
        break;
      }
      case WIRE_CONFIGURE:
        PutReturnCode(out, r.id, library_.Configure(r.parts[0]));
        break;
      case WIRE_SET_WORKING_DIR:
        PutReturnCode(out, r.id, library_.SetWorkingDir(r.parts[0]));
        break;
      default:
        break;
    }
  } catch (const std::exception& error) {
    PutFailure(out, r.id, ENTROPIC_ERROR_INTERNAL,
               "plugin " + path_ + " let a C++ exception escape a C entry point: " + error.what());
  } catch (...) {
    PutFailure(out, r.id, ENTROPIC_ERROR_INTERNAL, "plugin " + path_ + " let an exception escape a C entry point");
  }
  return true;
}

bool PluginInstance::ExecuteNow(const char* tool, const char* args_json, char*& answer, LoadFailure& failure) {
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
  submitted_.fetch_add(1, std::memory_order_release);  // ends a spin at once
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

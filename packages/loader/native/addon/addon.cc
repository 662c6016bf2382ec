// Entry of the in-process addon: `setErrorClass(PluginError)` once, then `NativePlugin` instances.
#include <entropic/interfaces/i_mcp_server.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <napi.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>

#include "abi_tables.h"
#include "native_plugin.h"
#include "plugin_error.h"

namespace {

void SetErrorClassJs(const Napi::CallbackInfo& info) {
  if (!info[0].IsFunction()) throw Napi::TypeError::New(info.Env(), "setErrorClass needs a class");
  entropic_loader::SetErrorClass(info.Env(), info[0].As<Napi::Function>());
}

// Moves the stdio protocol off fds 0 and 1 before in-process plugins load, as the host executable does:
// private close-on-exec copies of fds 0 and 1 carry the protocol; fd 1 then writes to stderr and fd 0
// reads /dev/null, so a plugin's printf lands on stderr and its reads of stdin see end-of-file.
// Done once per process; later calls return the same pair.
int private_in = -1;
int private_out = -1;

Napi::Value ProtectStdioJs(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (private_in < 0) {
    std::string step;
    int in_fd = fcntl(0, F_DUPFD_CLOEXEC, 3);
    int out_fd = in_fd < 0 ? -1 : fcntl(1, F_DUPFD_CLOEXEC, 3);
    int null_fd = out_fd < 0 ? -1 : open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (in_fd < 0) step = "duplicating fd 0";
    else if (out_fd < 0) step = "duplicating fd 1";
    else if (null_fd < 0) step = "opening /dev/null";
    else if (dup2(2, 1) < 0) step = "pointing fd 1 at fd 2";
    else if (dup2(null_fd, 0) < 0) {
      step = "pointing fd 0 at /dev/null";
      dup2(out_fd, 1);
    }
    int saved = errno;
    if (null_fd >= 0) close(null_fd);
    if (!step.empty()) {
      if (in_fd >= 0) close(in_fd);
      if (out_fd >= 0) close(out_fd);
      throw Napi::Error::New(env, "protectStdio: " + step + " failed: " + std::strerror(saved));
    }
    private_in = in_fd;
    private_out = out_fd;
  }
  Napi::Object fds = Napi::Object::New(env);
  fds.Set("input", Napi::Number::New(env, private_in));
  fds.Set("output", Napi::Number::New(env, private_out));
  return fds;
}

// spinRead(fd, buffer, micros): reads what the pipe `fd` holds into `buffer`, looking for up to `micros`
// (at most 1000) with the core yielded between looks. Returns the bytes read, 0 when nothing came in time or
// the read would block, -1 at end of input or on an error (the stream that owns the fd then sees it too).
Napi::Value SpinReadJs(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsNumber() || !info[1].IsBuffer() || !info[2].IsNumber()) {
    throw Napi::TypeError::New(env, "spinRead(fd, buffer, micros) needs a number, a Buffer and a number");
  }
  int fd = info[0].As<Napi::Number>().Int32Value();
  Napi::Buffer<char> buffer = info[1].As<Napi::Buffer<char>>();
  int64_t micros = info[2].As<Napi::Number>().Int64Value();
  if (micros < 0) micros = 0;
  if (micros > 1000) micros = 1000;
  auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(micros);
  struct pollfd p = {fd, POLLIN, 0};
  for (;;) {
    int ready = poll(&p, 1, 0);
    if (ready > 0) break;
    if (ready < 0 && errno != EINTR) return Napi::Number::New(env, -1);
    if (std::chrono::steady_clock::now() >= until) return Napi::Number::New(env, 0);
    sched_yield();
  }
  ssize_t n;
  do n = read(fd, buffer.Data(), buffer.Length());
  while (n < 0 && errno == EINTR);
  if (n < 0) return Napi::Number::New(env, errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1);
  return Napi::Number::New(env, n == 0 ? -1 : static_cast<double>(n));
}

// pipe(): a new pipe as `{ read, write }`, both ends close-on-exec. Node's child_process gives a child UNIX
// stream sockets for its stdio; a pipe carries the plugin host's bursts both ways for less (no socket buffer
// per write), so isolated hosting spawns the host on two of these when the addon is there.
Napi::Value PipeJs(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  int fds[2];
#ifdef __linux__
  int failed = pipe2(fds, O_CLOEXEC);
#else
  int failed = pipe(fds);
  if (failed == 0) {
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
  }
#endif
  if (failed != 0) throw Napi::Error::New(env, std::string("pipe failed: ") + std::strerror(errno));
  Napi::Object ends = Napi::Object::New(env);
  ends.Set("read", Napi::Number::New(env, fds[0]));
  ends.Set("write", Napi::Number::New(env, fds[1]));
  return ends;
}

// moveStderr(fd): fd 2 writes where `fd` does from now on (fd 1 too, when protectStdio pointed it at fd 2 and
// `fd` is not itself that copy); returns a close-on-exec copy of what fd 2 was, to write there still or to move
// back. `serve --log-format json` hands fd 2 to the relay that turns in-process plugins' stderr into log lines.
Napi::Value MoveStderrJs(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsNumber()) throw Napi::TypeError::New(env, "moveStderr(fd) needs a file descriptor");
  int fd = info[0].As<Napi::Number>().Int32Value();
  int was = fcntl(2, F_DUPFD_CLOEXEC, 3);
  if (was < 0) throw Napi::Error::New(env, std::string("moveStderr: duplicating fd 2 failed: ") + std::strerror(errno));
  if (dup2(fd, 2) < 0) {
    int saved = errno;
    close(was);
    throw Napi::Error::New(env, std::string("moveStderr: pointing fd 2 elsewhere failed: ") + std::strerror(saved));
  }
  if (private_out >= 0) dup2(2, 1);
  return Napi::Number::New(env, was);
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  std::string mismatch = entropic_loader::CheckEntryPointTable();
  if (!mismatch.empty()) throw Napi::Error::New(env, "entropic_loader was built with inconsistent ABI tables: " + mismatch);
  exports.Set("setErrorClass", Napi::Function::New<SetErrorClassJs>(env, "setErrorClass"));
  exports.Set("protectStdio", Napi::Function::New<ProtectStdioJs>(env, "protectStdio"));
  exports.Set("pipe", Napi::Function::New<PipeJs>(env, "pipe"));
  exports.Set("moveStderr", Napi::Function::New<MoveStderrJs>(env, "moveStderr"));
  exports.Set("spinRead", Napi::Function::New<SpinReadJs>(env, "spinRead"));
  exports.Set("NativePlugin", entropic_loader::NativePlugin::Define(env));
  exports.Set("apiVersion", Napi::Number::New(env, ENTROPIC_MCP_PLUGIN_API_VERSION));
  return exports;
}

}  // namespace

NODE_API_MODULE(entropic_loader, Init)

/*
 * The OS sandbox of the plugin host: what the loader asks for (ENTROPIC_HOST_SANDBOX) and the two hooks main.c
 * calls. The loader decides which mechanisms to use from what `--sandbox-probe` reported (src/sandbox/); the host
 * applies exactly those, in one go, after its own set-up and before the plugin library is opened, and refuses to
 * load the plugin when one of them cannot be applied.
 *
 * ENTROPIC_HOST_SANDBOX holds one `key value` pair a line (it is removed from the environment before the plugin
 * loads):
 *   landlock N       use Landlock ABI N (0: no filesystem rules)
 *   net MODE         landlock (TCP ports by Landlock), netns (a new network namespace: no network at all) or off
 *   scope 0|1        Landlock scoping: no signals or abstract unix sockets beyond the sandbox (ABI 6)
 *   seccomp MODE     enforce, audit (refusals are logged to stderr, not enforced) or off
 *   pids MODE        count the plugin's tasks: cgroup (a pids cgroup of its own), nproc (RLIMIT_NPROC in a user
 *                    namespace of its own; never for root) or off
 *   read PATH        readable (repeatable); write PATH: readable and writable (repeatable)
 *   connect PORT     TCP port it may connect to (repeatable); bind PORT: may listen on (repeatable)
 *   exec 0|1         may start programs; udp 0|1: may use UDP
 *   processes N      tasks (threads and processes) beyond the host's own; absent: no new processes, any threads
 *   cpu N            CPU seconds for the host's lifetime; files N: descriptors the plugin may open
 */
#ifndef ENTROPIC_HOST_SANDBOX_H
#define ENTROPIC_HOST_SANDBOX_H

#include "plugin.h"

/* Applies the sandbox ENTROPIC_HOST_SANDBOX describes, if any. 0: applied (or none asked for); -1: err says
 * why, and the plugin must not be loaded. Call while the process has one thread. */
int sandbox_apply(const char* plugin_path, load_error_t* err);

/* `--sandbox-probe`: prints what this kernel and this build can enforce, as one JSON object. Exit status. */
int sandbox_probe(void);

#endif

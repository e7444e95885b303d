// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Starting this program again in another role (a run child, an IPC
// consumer), with the measuring options of the current run.

#ifndef UMF_GPU_BENCH_SPAWN_H
#define UMF_GPU_BENCH_SPAWN_H 1

#include <stdbool.h>
#include <sys/types.h>

#include "bench.h"

typedef struct bench_child_t {
    pid_t pid;
    int out_fd; // the read end of the child's stdout, or -1 if inherited
} bench_child_t;

// Starts /proc/self/exe with the options of `o`, then `role_args`
// (NULL-terminated), in the environment plus `env` ("VAR=value" items,
// NULL-terminated, replacing variables of the same name). `keep_fd` (or -1)
// stays open in the child; every other descriptor of ours is close-on-exec.
// With `capture`, the child's stdout is a pipe read from child->out_fd.
// False (with the reason on stderr) if it could not be started.
bool bench_spawn(const bench_options_t *o, const char *const *role_args,
                 const char *const *env, int keep_fd, bool capture,
                 bench_child_t *child);

// Waits for the child: its exit status, or 128 + the signal that ended it.
int bench_wait(bench_child_t *child);

#endif // UMF_GPU_BENCH_SPAWN_H

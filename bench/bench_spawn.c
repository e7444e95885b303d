// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "bench_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define MAX_ARGS 48
#define ARG_LEN 64

// The options a child needs to measure as this process does.
static void build_argv(const bench_options_t *o, const char *const *role_args,
                       char storage[][ARG_LEN], char **argv) {
    size_t n = 0, s = 0;
    argv[n++] = (char *)"umf-gpu-bench";
#define ADD(flag, fmt, value)                                                  \
    do {                                                                       \
        argv[n++] = (char *)(flag);                                            \
        snprintf(storage[s], ARG_LEN, fmt, value);                             \
        argv[n++] = storage[s++];                                              \
    } while (0)
    ADD("--reps", "%u", o->reps);
    ADD("--warmup", "%u", o->warmup);
    ADD("--rep-ms", "%.9g", o->rep_ns / 1e6);
    ADD("--clock", "%s", o->clock == BENCH_CLOCK_CPU ? "cpu" : "wall");
    ADD("--ipc-handles", "%u", o->ipc_handles);
    ADD("--ipc-size", "%zu", o->ipc_size);
    ADD("--ipc-cached", "%u", o->ipc_cached);
    ADD("--ipc-reps", "%u", o->ipc_reps);
    ADD("--residency-live", "%zu", o->residency_live);
#undef ADD
    argv[n++] = (char *)"--live";
    storage[s][0] = '\0';
    for (unsigned i = 0; i < o->live_count; i++) {
        size_t used = strlen(storage[s]);
        snprintf(storage[s] + used, ARG_LEN - used, "%s%zu", i ? "," : "",
                 o->live[i]);
    }
    argv[n++] = storage[s++];
    for (; *role_args != NULL && n + 1 < MAX_ARGS; role_args++) {
        argv[n++] = (char *)*role_args;
    }
    argv[n] = NULL;
}

// environ with `env` replacing or adding variables; a malloc'ed array of
// borrowed strings.
static char **build_envp(const char *const *env) {
    size_t have = 0, add = 0;
    while (environ[have] != NULL) {
        have++;
    }
    while (env[add] != NULL) {
        add++;
    }
    char **envp = calloc(have + add + 1, sizeof(*envp));
    if (envp == NULL) {
        return NULL;
    }
    size_t n = 0;
    for (size_t i = 0; i < have; i++) {
        bool replaced = false;
        for (size_t j = 0; j < add && !replaced; j++) {
            size_t name = strcspn(env[j], "=");
            replaced = strncmp(environ[i], env[j], name + 1) == 0;
        }
        if (!replaced) {
            envp[n++] = environ[i];
        }
    }
    for (size_t j = 0; j < add; j++) {
        envp[n++] = (char *)env[j];
    }
    envp[n] = NULL;
    return envp;
}

bool bench_spawn(const bench_options_t *o, const char *const *role_args,
                 const char *const *env, int keep_fd, bool capture,
                 bench_child_t *child) {
    char storage[16][ARG_LEN];
    char *argv[MAX_ARGS];
    build_argv(o, role_args, storage, argv);
    char **envp = build_envp(env);
    if (envp == NULL) {
        fprintf(stderr, "umf-gpu-bench: out of memory\n");
        return false;
    }
    int out[2] = {-1, -1};
    if (capture && pipe2(out, O_CLOEXEC) != 0) {
        fprintf(stderr, "umf-gpu-bench: pipe: %s\n", strerror(errno));
        free(envp);
        return false;
    }
    fflush(NULL); // nothing buffered may be written twice
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "umf-gpu-bench: fork: %s\n", strerror(errno));
        if (capture) {
            close(out[0]);
            close(out[1]);
        }
        free(envp);
        return false;
    }
    if (pid == 0) {
        // Only async-signal-safe calls from here on.
        if (capture && dup2(out[1], STDOUT_FILENO) < 0) {
            _exit(127);
        }
        if (keep_fd >= 0) {
            int flags = fcntl(keep_fd, F_GETFD);
            if (flags < 0 || fcntl(keep_fd, F_SETFD, flags & ~FD_CLOEXEC) < 0) {
                _exit(127);
            }
        }
        execve("/proc/self/exe", argv, envp);
        _exit(127);
    }
    free(envp);
    child->pid = pid;
    child->out_fd = -1;
    if (capture) {
        close(out[1]);
        child->out_fd = out[0];
    }
    return true;
}

int bench_wait(bench_child_t *child) {
    int status = 0;
    pid_t r;
    do {
        r = waitpid(child->pid, &status, 0);
    } while (r < 0 && errno == EINTR);
    if (r < 0) {
        return 127;
    }
    if (WIFEXITED(status)) {
        return WEXITSTATUS(status);
    }
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 127;
}

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The fd server (utils/util_fd_socket.h) on its own, linked in directly as
// bench_trust.c links the fd transfer: this process exports a memfd through
// a server of its own and takes it back over the socket with the whole
// client (connect, request, the proof that the server is the exporter, the
// fd and its check), as a consumer whose pidfd_getfd the OS refuses does:
//
//   ipc_fd_socket_take      one take (ns, per repetition of TAKES)
//   ipc_fd_socket_auth      the proof of the server alone, on a connected
//                           socket (SO_PEERPIDFD or SO_PEERCRED + pidfd_open,
//                           the pidfs inode or start time, the liveness
//                           poll); ratio: its share of a take
//   ipc_fd_flood_none       FLOOD_TAKES takes, each timed (wall): p99_ns and
//                           max_ns; ratio: the fraction served within 1 s
//   ipc_fd_flood_hold       the same while a forked process connects as fast
//                           as it can and holds its connections
//   ipc_fd_flood_malformed  the same while a forked process floods the
//                           server with malformed requests
//
// The flooders are forked children that make only system calls; the server
// thread and the consumer share this process (one exporter, one consumer).

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "util_fd.h"
#include "util_fd_socket.h"
#include "util_fd_wire.h"

// Takes per repetition of the paired rows, and timed takes per flood.
#define TAKES 64
#define FLOOD_TAKES 1000
#define FLOOD_TAKES_QUICK 100
// The owner of this measurement's export (util_fd_socket.h).
#define OWNER ((uintptr_t)&bench_measure_fd_server)

static double wall_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void report_failure(const char *provider, const char *what,
                           const umf_fd_failure_t *why) {
    char text[768];
    bench_fail(provider, "fd server: %s: %s", what,
               umf_fd_failure_describe(why, text, sizeof(text)));
}

static bool take_one(const umf_fd_socket_name_t *name,
                     const umf_fd_socket_request_t *req,
                     umf_fd_failure_t *why) {
    int fd = -1;
    if (umf_fd_socket_take(name, req, &fd, why) != UMF_FD_OK) {
        return false;
    }
    close(fd);
    return true;
}

// A flooder: a child that connects to `addr` as fast as it can until the
// parent closes its end of `gate_pipe`, holding its newest 256 connections
// ("hold") or sending a malformed request on each and hanging up ("malformed").
static pid_t start_flooder(const char *mode, const struct sockaddr_un *addr,
                           socklen_t len, const int gate_pipe[2]) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid != 0) {
        return pid;
    }
    close(gate_pipe[1]); // the parent's end: its close ends the flood
    int gate = gate_pipe[0];
    bool hold = strcmp(mode, "hold") == 0;
    int ring[256];
    for (size_t i = 0; i < 256; i++) {
        ring[i] = -1;
    }
    unsigned char bad[56];
    memset(bad, 0xff, sizeof(bad));
    for (unsigned long i = 0;; i++) {
        if (i % 64 == 0) {
            struct pollfd p = {gate, POLLIN, 0};
            if (poll(&p, 1, 0) != 0) {
                _exit(0);
            }
        }
        int s =
            socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (s < 0) {
            continue;
        }
        if (connect(s, (const struct sockaddr *)addr, len) != 0) {
            close(s);
            continue;
        }
        if (hold) {
            if (ring[i % 256] >= 0) {
                close(ring[i % 256]);
            }
            ring[i % 256] = s;
        } else {
            (void)send(s, bad, i % 2 == 0 ? sizeof(bad) : 3,
                       MSG_DONTWAIT | MSG_NOSIGNAL);
            close(s);
        }
    }
}

// `n` takes, each timed (wall ns) into samples; *within gets how many were
// served within 1 s.
static void timed_takes(const umf_fd_socket_name_t *name,
                        const umf_fd_socket_request_t *req, unsigned n,
                        double *samples, unsigned *within) {
    *within = 0;
    for (unsigned i = 0; i < n; i++) {
        umf_fd_failure_t why;
        double t0 = wall_ns();
        bool ok = take_one(name, req, &why);
        samples[i] = wall_ns() - t0;
        *within += ok && samples[i] <= 1e9;
    }
}

static bool flood_row(const bench_run_t *run, const char *row, const char *mode,
                      const umf_fd_socket_name_t *name,
                      const umf_fd_socket_request_t *req) {
    const char *provider = run->backend->name;
    unsigned n = run->o->quick ? FLOOD_TAKES_QUICK : FLOOD_TAKES;
    double *samples = calloc(n, sizeof(*samples));
    struct sockaddr_un addr;
    socklen_t len = umf_fd_wire_addr(name, &addr);
    int gate[2] = {-1, -1};
    pid_t flooder = -1;
    if (samples == NULL || len == 0 || pipe2(gate, O_CLOEXEC) != 0) {
        bench_fail(provider, "fd server flood: %s", strerror(errno));
        free(samples);
        return false;
    }
    if (mode != NULL) {
        flooder = start_flooder(mode, &addr, len, gate);
        usleep(20 * 1000); // the flood is on
    }
    unsigned within = 0;
    timed_takes(name, req, n, samples, &within);
    close(gate[1]);
    close(gate[0]);
    if (flooder > 0) {
        waitpid(flooder, NULL, 0);
    }
    bench_result_t r;
    bench_result_init(&r, row, provider, run->mode, -1, 1, 0);
    bench_summarize_tail(&r, samples, n);
    r.ratio = (double)within / n;
    bench_write_result(&r);
    free(samples);
    return true;
}

static void write_summary(const bench_run_t *run, const char *name,
                          double *samples, unsigned n, double ratio) {
    bench_result_t r;
    bench_result_init(&r, name, run->backend->name, run->mode, -1, 1, 0);
    bench_summarize(&r, samples, n);
    r.ratio = ratio;
    bench_write_result(&r);
}

static double median_of(const double *samples, unsigned n) {
    double sorted[BENCH_MAX_REPS];
    memcpy(sorted, samples, n * sizeof(*samples));
    return bench_quantile(sorted, n, 0.5);
}

// The paired rows: takes, and the proof alone on one connection.
static bool take_and_auth(const bench_run_t *run,
                          const umf_fd_socket_name_t *name,
                          const umf_fd_socket_request_t *req) {
    const bench_options_t *o = run->o;
    const char *provider = run->backend->name;
    struct sockaddr_un addr;
    socklen_t len = umf_fd_wire_addr(name, &addr);
    int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (s < 0 || connect(s, (struct sockaddr *)&addr, len) != 0) {
        bench_fail(provider, "fd server: connect: %s", strerror(errno));
        if (s >= 0) {
            close(s);
        }
        return false;
    }
    unsigned total = o->warmup + o->ipc_reps;
    double take[BENCH_MAX_REPS], auth[BENCH_MAX_REPS];
    bool ok = true;
    for (unsigned r = 0; ok && r < total; r++) {
        umf_fd_failure_t why;
        double t0 = bench_now(o->clock);
        for (unsigned i = 0; ok && i < TAKES; i++) {
            ok = take_one(name, req, &why);
        }
        double t1 = bench_now(o->clock);
        for (unsigned i = 0; ok && i < TAKES; i++) {
            ok = umf_fd_socket_authenticate(s, req, &why) == UMF_FD_OK;
        }
        double t2 = bench_now(o->clock);
        if (!ok) {
            report_failure(provider, "a take or the proof", &why);
        } else if (r >= o->warmup) {
            take[r - o->warmup] = (t1 - t0) / TAKES;
            auth[r - o->warmup] = (t2 - t1) / TAKES;
        }
    }
    close(s);
    if (ok) {
        double share =
            median_of(auth, o->ipc_reps) / median_of(take, o->ipc_reps);
        write_summary(run, "ipc_fd_socket_take", take, o->ipc_reps, NAN);
        write_summary(run, "ipc_fd_socket_auth", auth, o->ipc_reps, share);
    }
    return ok;
}

static bool measure_fd_server(const bench_run_t *run) {
    const char *provider = run->backend->name;
    int fd = memfd_create("umf-gpu-bench-fd-server", MFD_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        bench_fail(provider, "fd server: memfd: %s", strerror(errno));
        if (fd >= 0) {
            close(fd);
        }
        return false;
    }
    umf_fd_serve_policy_t policy = {UMF_FD_TRANSFER_SOCKET, "", NULL, 0, NULL};
    umf_fd_socket_name_t name;
    int err = umf_fd_server_export(OWNER, 0x1000, 1, fd, &policy, &name);
    if (err != 0) {
        bench_fail(provider, "fd server: cannot serve: %s", strerror(err));
        close(fd);
        return false;
    }
    umf_fd_socket_request_t req = {getpid(),
                                   fd,
                                   1,
                                   {umf_proc_self_start_time(),
                                    umf_proc_self_pidfs_ino(),
                                    (uint64_t)st.st_dev, (uint64_t)st.st_ino}};
    bool ok =
        take_and_auth(run, &name, &req) &&
        flood_row(run, "ipc_fd_flood_none", NULL, &name, &req) &&
        flood_row(run, "ipc_fd_flood_hold", "hold", &name, &req) &&
        flood_row(run, "ipc_fd_flood_malformed", "malformed", &name, &req);
    umf_fd_server_detach(OWNER);
    close(fd);
    return ok;
}

const bench_measure_t bench_measure_fd_server = {
    .name = "fd server",
    .modes = BENCH_MODE_FULL,
    .run = measure_fd_server,
};

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What proving the exporter costs on a first IPC open: the fd transfer of
// utils/util_fd.c (pidfd_open + pidfd_getfd + close, what every first open
// of a Level Zero handle does, and the emulated libcuda inside
// cuIpcOpenMemHandle) without and with the exporter's identity (its start
// time from /proc while the pidfd pins it, or, from Linux 6.9, the pidfd's
// own inode, and the fd's st_dev/st_ino). The difference is the check's
// cost; compare it with ipc_open_first.
//
// The exporter is a forked child that holds a memfd; it only waits.

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "util_fd.h"

// Transfers per repetition.
#define TAKES 64

static bool take_all(pid_t pid, int fd, const umf_fd_identity_t *identity,
                     bench_clock_t clock, double *ns) {
    double t0 = bench_now(clock);
    for (unsigned i = 0; i < TAKES; i++) {
        int local = -1;
        umf_fd_failure_t why;
        if (umf_fd_from_process(pid, fd, identity, &local, &why) != UMF_FD_OK) {
            char text[512];
            fprintf(stderr, "umf-gpu-bench: %s\n",
                    umf_fd_failure_describe(&why, text, sizeof(text)));
            return false;
        }
        close(local);
    }
    *ns = (bench_now(clock) - t0) / TAKES;
    return true;
}

// The median of n samples (copied: the samples stay as they are).
static double median_of(const double *samples, unsigned n) {
    double sorted[BENCH_MAX_REPS];
    for (unsigned i = 0; i < n; i++) {
        sorted[i] = samples[i];
    }
    return bench_quantile(sorted, n, 0.5);
}

static void write_summary(const char *name, const char *provider,
                          const char *mode, double *samples, unsigned n,
                          double ratio) {
    bench_result_t r;
    bench_result_init(&r, name, provider, mode, -1, 1, 0);
    bench_summarize(&r, samples, n);
    r.ratio = ratio;
    bench_write_result(&r);
}

static bool measure_trust(const bench_run_t *run) {
    const bench_options_t *o = run->o;
    const char *provider = run->backend->name, *mode = run->mode;
    int fd = memfd_create("umf-gpu-bench-trust", MFD_CLOEXEC);
    int gate[2], said[2];
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || pipe(gate) != 0 || pipe(said) != 0) {
        bench_fail(provider, "trust: cannot make the exporter's memfd: %s",
                   strerror(errno));
        return false;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        // The exporter: says who it is, as it would in its IPC data, and
        // holds the memfd (inherited) until the gate closes.
        close(gate[1]);
        uint64_t me[2] = {umf_proc_self_start_time(),
                          umf_proc_self_pidfs_ino()};
        if (write(said[1], me, sizeof(me)) != (ssize_t)sizeof(me)) {
            _exit(1);
        }
        char c;
        while (read(gate[0], &c, 1) < 0 && errno == EINTR) {
        }
        _exit(0);
    }
    close(gate[0]);
    close(said[1]);
    uint64_t me[2] = {0, 0};
    bool ok = pid > 0 && read(said[0], me, sizeof(me)) == (ssize_t)sizeof(me);
    close(said[0]);
    // What a first open checks (the pidfd's inode where the kernel has
    // them), and the /proc start time that older kernels need.
    umf_fd_identity_t checked = {me[0], me[1], (uint64_t)st.st_dev,
                                 (uint64_t)st.st_ino};
    umf_fd_identity_t by_proc = {me[0], 0, (uint64_t)st.st_dev,
                                 (uint64_t)st.st_ino};
    unsigned total = o->warmup + o->ipc_reps;
    double plain[BENCH_MAX_REPS], fast[BENCH_MAX_REPS], slow[BENCH_MAX_REPS];
    for (unsigned r = 0; ok && r < total; r++) {
        double p = 0, c = 0, s = 0;
        ok = take_all(pid, fd, NULL, o->clock, &p) &&
             take_all(pid, fd, &checked, o->clock, &c) &&
             take_all(pid, fd, &by_proc, o->clock, &s);
        if (r >= o->warmup) {
            plain[r - o->warmup] = p;
            fast[r - o->warmup] = c;
            slow[r - o->warmup] = s;
        }
    }
    close(gate[1]);
    if (pid > 0) {
        waitpid(pid, NULL, 0);
    }
    close(fd);
    if (!ok) {
        bench_fail(provider, "trust: the exporter did not answer");
        return false;
    }
    // Ratios of the medians to the unchecked transfer, as the other rows'.
    double base = median_of(plain, o->ipc_reps);
    double rf = median_of(fast, o->ipc_reps) / base;
    double rs = median_of(slow, o->ipc_reps) / base;
    write_summary("ipc_fd_take", provider, mode, plain, o->ipc_reps, NAN);
    write_summary(me[1] != 0 ? "ipc_fd_take_checked_pidfs"
                             : "ipc_fd_take_checked_proc",
                  provider, mode, fast, o->ipc_reps, rf);
    write_summary("ipc_fd_take_checked_proc", provider, mode, slow, o->ipc_reps,
                  rs);
    return true;
}

const bench_measure_t bench_measure_trust = {
    .name = "IPC trust",
    .modes = BENCH_MODE_FULL,
    .run = measure_trust,
};

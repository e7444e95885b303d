// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// IPC across two processes. The producer (a run child) measures
// get_ipc_handle + put_ipc_handle on fresh allocations and again on the
// same ones, then shares a set of allocations with a consumer process (this
// binary again) over a socket. Each consumer repetition opens every handle
// once (a cache miss: the driver maps the memory), re-opens each several
// times (cache hits), closes the extra references, and closes the last one
// (the unmap), timing each phase; the provider's counters confirm which
// opens were hits. A second consumer does the same with its fds taken
// through the producer's fd server only (UMF_GPU_IPC_FD_TRANSFER=socket):
// ipc_open_first_socket, whose ratio is its first open over the pidfd
// consumer's, and ipc_open_cached_socket, which must not change (a hit
// makes no socket traffic).

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <umf/memory_provider_gpu.h>

#include "bench.h"
#include "bench_spawn.h"
#include "sock_io.h"

#ifndef PR_SET_PTRACER
#define PR_SET_PTRACER 0x59616d61
#endif

// What the producer sends first.
typedef struct ipc_header_t {
    uint32_t handles;
    uint32_t handle_size;
    uint64_t alloc_size;
} ipc_header_t;

static void ipc_error(const char *provider, umf_memory_provider_handle_t h,
                      const char *what, umf_result_t ret) {
    const char *message = NULL;
    int32_t code = 0;
    umfMemoryProviderGetLastNativeError(h, &message, &code);
    bench_fail(provider, "%s failed: umf_result_t %d%s%s", what, (int)ret,
               code != 0 && message != NULL ? "; native error: " : "",
               code != 0 && message != NULL ? message : "");
}

static void write_summary(const char *name, const char *provider,
                          const char *mode, size_t size, double *samples,
                          unsigned n, double ratio) {
    bench_result_t r;
    bench_result_init(&r, name, provider, mode, (long long)size, 1, 0);
    bench_summarize(&r, samples, n);
    r.ratio = ratio;
    bench_write_result(&r);
}

// ---- Producer --------------------------------------------------------------

static bool alloc_all(umf_memory_provider_handle_t h, const char *provider,
                      void **ptrs, unsigned k, size_t size) {
    for (unsigned j = 0; j < k; j++) {
        umf_result_t ret = umfMemoryProviderAlloc(h, size, 0, &ptrs[j]);
        if (ret != UMF_RESULT_SUCCESS) {
            ipc_error(provider, h, "allocating memory to share", ret);
            for (; j > 0; j--) {
                (void)umfMemoryProviderFree(h, ptrs[j - 1], size);
            }
            return false;
        }
    }
    return true;
}

static bool free_all(umf_memory_provider_handle_t h, const char *provider,
                     void **ptrs, unsigned k, size_t size) {
    bool ok = true;
    for (unsigned j = 0; j < k; j++) {
        umf_result_t ret = umfMemoryProviderFree(h, ptrs[j], size);
        if (ret != UMF_RESULT_SUCCESS && ok) {
            ipc_error(provider, h, "freeing shared memory", ret);
            ok = false;
        }
    }
    return ok;
}

// get+put of every allocation; *ns gets the mean per pair.
static bool get_put_all(umf_memory_provider_handle_t h, const char *provider,
                        void **ptrs, unsigned k, size_t size, char *data,
                        size_t handle_size, bench_clock_t clock, double *ns) {
    double t0 = bench_now(clock);
    for (unsigned j = 0; j < k; j++) {
        void *d = data + (size_t)j * handle_size;
        umf_result_t ret = umfMemoryProviderGetIPCHandle(h, ptrs[j], size, d);
        if (ret == UMF_RESULT_SUCCESS) {
            ret = umfMemoryProviderPutIPCHandle(h, d);
        }
        if (ret != UMF_RESULT_SUCCESS) {
            ipc_error(provider, h, "get_ipc_handle + put_ipc_handle", ret);
            return false;
        }
    }
    *ns = (bench_now(clock) - t0) / k;
    return true;
}

// The producer's own measurements: fresh allocations each repetition, so
// the first get of each is the export the driver makes once per
// allocation, and the second is what a repeated get costs.
static bool measure_get_put(const bench_options_t *o, const char *provider,
                            umf_memory_provider_handle_t h, const char *mode,
                            void **ptrs, char *data, size_t handle_size) {
    unsigned k = o->ipc_handles, total = o->warmup + o->ipc_reps;
    size_t size = o->ipc_size;
    double first[BENCH_MAX_REPS], again[BENCH_MAX_REPS];
    for (unsigned r = 0; r < total; r++) {
        if (!alloc_all(h, provider, ptrs, k, size)) {
            return false;
        }
        double f = 0, a = 0;
        bool ok = get_put_all(h, provider, ptrs, k, size, data, handle_size,
                              o->clock, &f) &&
                  get_put_all(h, provider, ptrs, k, size, data, handle_size,
                              o->clock, &a);
        ok &= free_all(h, provider, ptrs, k, size);
        if (!ok) {
            return false;
        }
        if (r >= o->warmup) {
            first[r - o->warmup] = f;
            again[r - o->warmup] = a;
        }
    }
    write_summary("ipc_get_put", provider, mode, size, first, o->ipc_reps, NAN);
    write_summary("ipc_get_put_again", provider, mode, size, again, o->ipc_reps,
                  NAN);
    return true;
}

// One consumer process (environment `env`, may be NULL) opens the k
// handles in `data`; *first gets its median first open (ns).
static bool run_consumer(const bench_options_t *o, const char *provider,
                         const char *mode, ipc_header_t hdr, const char *data,
                         const char *const *env, double *first) {
    int sv[2] = {-1, -1};
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        bench_fail(provider, "socketpair: %s", strerror(errno));
        return false;
    }
    char fd_text[16];
    snprintf(fd_text, sizeof(fd_text), "%d", sv[1]);
    const char *role[] = {"--ipc-consumer", fd_text, "--provider", provider,
                          "--mode",         mode,    NULL};
    const char *no_env[] = {NULL};
    bench_child_t consumer;
    bool ok = false;
    if (!bench_spawn(o, role, env != NULL ? env : no_env, sv[1], false,
                     &consumer)) {
        goto out;
    }
    close(sv[1]);
    sv[1] = -1;
    // Where Yama restricts ptrace, the consumer needs leave to take our
    // descriptors (pidfd_getfd); elsewhere this fails harmlessly.
    (void)prctl(PR_SET_PTRACER, (unsigned long)consumer.pid, 0, 0, 0);
    char done = 0;
    bool sent =
        sock_send_all(sv[0], &hdr, sizeof(hdr)) == 0 &&
        sock_send_all(sv[0], data, (size_t)hdr.handles * hdr.handle_size) == 0;
    // The consumer answers once it has closed everything, with its median
    // first open.
    bool answered = sent && sock_recv_all(sv[0], &done, 1) == 0 &&
                    done == 'D' &&
                    sock_recv_all(sv[0], first, sizeof(*first)) == 0;
    int status = bench_wait(&consumer);
    if (!answered || status != 0) {
        bench_fail(provider, "the IPC consumer failed (exit status %d)",
                   status);
        goto out;
    }
    ok = true;
out:
    if (sv[0] >= 0) {
        close(sv[0]);
    }
    if (sv[1] >= 0) {
        close(sv[1]);
    }
    return ok;
}

bool bench_ipc_producer(const bench_options_t *o,
                        const bench_backend_t *backend, bench_driver_t *d,
                        umf_memory_provider_handle_t h, const char *mode) {
    (void)d;
    const char *provider = backend->name;
    unsigned k = o->ipc_handles;
    size_t size = o->ipc_size, handle_size = 0;
    umf_result_t ret = umfMemoryProviderGetIPCHandleSize(h, &handle_size);
    if (ret != UMF_RESULT_SUCCESS || handle_size == 0) {
        ipc_error(provider, h, "get_ipc_handle_size", ret);
        return false;
    }
    void **ptrs = calloc(k, sizeof(*ptrs));
    char *data = calloc(k, handle_size);
    bool ok = false, allocated = false;
    if (ptrs == NULL || data == NULL) {
        bench_fail(provider, "out of host memory");
        goto out;
    }
    if (!measure_get_put(o, provider, h, mode, ptrs, data, handle_size)) {
        goto out;
    }

    // The handles the consumer opens stay valid (not put) until it is done.
    if (!alloc_all(h, provider, ptrs, k, size)) {
        goto out;
    }
    allocated = true;
    for (unsigned j = 0; j < k; j++) {
        ret = umfMemoryProviderGetIPCHandle(h, ptrs[j], size,
                                            data + (size_t)j * handle_size);
        if (ret != UMF_RESULT_SUCCESS) {
            ipc_error(provider, h, "get_ipc_handle", ret);
            goto out_put;
        }
    }
    // pidfd_getfd, then the fd server with the pidfd run's first open as
    // the socket run's reference.
    double pidfd_first = NAN, socket_first = NAN;
    char pidfd_env[64];
    if (!run_consumer(o, provider, mode,
                      (ipc_header_t){k, (uint32_t)handle_size, size}, data,
                      NULL, &pidfd_first)) {
        goto out_put;
    }
    snprintf(pidfd_env, sizeof(pidfd_env), "UMF_GPU_BENCH_PIDFD_FIRST=%.3f",
             pidfd_first);
    const char *socket_env[] = {"UMF_GPU_IPC_FD_TRANSFER=socket", pidfd_env,
                                NULL};
    if (!run_consumer(o, provider, mode,
                      (ipc_header_t){k, (uint32_t)handle_size, size}, data,
                      socket_env, &socket_first)) {
        goto out_put;
    }
    ok = true;
out_put:
    for (unsigned j = 0; j < k && allocated; j++) {
        // Put what was got; data never got is rejected, which is harmless.
        (void)umfMemoryProviderPutIPCHandle(h, data + (size_t)j * handle_size);
    }
out:
    if (allocated && !free_all(h, provider, ptrs, k, size)) {
        ok = false;
    }
    free(data);
    free(ptrs);
    return ok;
}

// ---- Consumer --------------------------------------------------------------

typedef struct consumer_t {
    const bench_options_t *o;
    const char *provider;
    umf_memory_provider_handle_t h;
    unsigned k;
    size_t size, handle_size;
    char *data;
    void **ptrs;
    double first_median; // ns
} consumer_t;

static bool open_all(consumer_t *c, bool check) {
    for (unsigned j = 0; j < c->k; j++) {
        void *ptr = NULL;
        umf_result_t ret = umfMemoryProviderOpenIPCHandle(
            c->h, c->data + (size_t)j * c->handle_size, &ptr);
        if (ret != UMF_RESULT_SUCCESS) {
            ipc_error(c->provider, c->h, "open_ipc_handle", ret);
            return false;
        }
        if (check && ptr != c->ptrs[j]) {
            bench_fail(c->provider, "a cached open returned %p, not %p", ptr,
                       c->ptrs[j]);
            return false;
        }
        c->ptrs[j] = ptr;
    }
    return true;
}

static bool close_all(consumer_t *c) {
    for (unsigned j = 0; j < c->k; j++) {
        umf_result_t ret =
            umfMemoryProviderCloseIPCHandle(c->h, c->ptrs[j], c->size);
        if (ret != UMF_RESULT_SUCCESS) {
            ipc_error(c->provider, c->h, "close_ipc_handle", ret);
            return false;
        }
    }
    return true;
}

static bool consume(consumer_t *c, const char *mode) {
    const bench_options_t *o = c->o;
    unsigned total = o->warmup + o->ipc_reps, cached = o->ipc_cached;
    double first[BENCH_MAX_REPS], hit[BENCH_MAX_REPS];
    double close_ref[BENCH_MAX_REPS], close_last[BENCH_MAX_REPS];
    umf_gpu_provider_stats_t before, after;
    if (umfGpuMemoryProviderGetStats(c->h, &before) != UMF_RESULT_SUCCESS) {
        bench_fail(c->provider, "umfGpuMemoryProviderGetStats failed");
        return false;
    }
    for (unsigned r = 0; r < total; r++) {
        double t0 = bench_now(o->clock);
        if (!open_all(c, false)) {
            return false;
        }
        double t1 = bench_now(o->clock);
        for (unsigned i = 0; i < cached; i++) {
            if (!open_all(c, true)) {
                return false;
            }
        }
        double t2 = bench_now(o->clock);
        for (unsigned i = 0; i < cached; i++) {
            if (!close_all(c)) {
                return false;
            }
        }
        double t3 = bench_now(o->clock);
        if (!close_all(c)) {
            return false;
        }
        double t4 = bench_now(o->clock);
        if (r >= o->warmup) {
            unsigned s = r - o->warmup;
            first[s] = (t1 - t0) / c->k;
            hit[s] = (t2 - t1) / ((double)c->k * cached);
            close_ref[s] = (t3 - t2) / ((double)c->k * cached);
            close_last[s] = (t4 - t3) / c->k;
        }
    }
    if (umfGpuMemoryProviderGetStats(c->h, &after) != UMF_RESULT_SUCCESS) {
        bench_fail(c->provider, "umfGpuMemoryProviderGetStats failed");
        return false;
    }
    uint64_t misses = after.ipc_cache_misses - before.ipc_cache_misses;
    uint64_t hits = after.ipc_cache_hits - before.ipc_cache_hits;
    if (misses != (uint64_t)total * c->k ||
        hits != (uint64_t)total * c->k * cached) {
        bench_fail(c->provider,
                   "the opened-handle cache counted %llu misses and %llu "
                   "hits, not %llu and %llu: the first and cached opens are "
                   "not what they claim",
                   (unsigned long long)misses, (unsigned long long)hits,
                   (unsigned long long)total * c->k,
                   (unsigned long long)total * c->k * cached);
        return false;
    }
    double hit_copy[BENCH_MAX_REPS], first_copy[BENCH_MAX_REPS];
    memcpy(hit_copy, hit, sizeof(hit));
    memcpy(first_copy, first, sizeof(first));
    c->first_median = bench_quantile(first_copy, o->ipc_reps, 0.5);
    // The socket run (UMF_GPU_IPC_FD_TRANSFER=socket, set by the producer):
    // its first open against the pidfd run's.
    const char *pidfd_first = getenv("UMF_GPU_BENCH_PIDFD_FIRST");
    if (pidfd_first != NULL) {
        write_summary("ipc_open_first_socket", c->provider, mode, c->size,
                      first, o->ipc_reps,
                      c->first_median / strtod(pidfd_first, NULL));
        write_summary("ipc_open_cached_socket", c->provider, mode, c->size, hit,
                      o->ipc_reps, NAN);
        return true;
    }
    double ratio = c->first_median / bench_quantile(hit_copy, o->ipc_reps, 0.5);
    write_summary("ipc_open_first", c->provider, mode, c->size, first,
                  o->ipc_reps, ratio);
    write_summary("ipc_open_cached", c->provider, mode, c->size, hit,
                  o->ipc_reps, NAN);
    write_summary("ipc_close_ref", c->provider, mode, c->size, close_ref,
                  o->ipc_reps, NAN);
    write_summary("ipc_close_last", c->provider, mode, c->size, close_last,
                  o->ipc_reps, NAN);
    return true;
}

int bench_ipc_consumer(const bench_options_t *o, const bench_backend_t *backend,
                       const char *mode, int sock) {
    char why[512];
    bench_driver_t *driver = NULL;
    if (!backend->open(&driver, why, sizeof(why))) {
        bench_fail(backend->name, "IPC consumer: %s", why);
        return 1;
    }
    consumer_t c = {.o = o, .provider = backend->name};
    int status = 1;
    umf_result_t ret = backend->provider_create(driver, &c.h);
    if (ret != UMF_RESULT_SUCCESS) {
        bench_fail(backend->name,
                   "IPC consumer: cannot create the provider: "
                   "%d",
                   (int)ret);
        goto out;
    }
    ipc_header_t hdr;
    if (sock_recv_all(sock, &hdr, sizeof(hdr)) != 0 || hdr.handles == 0 ||
        hdr.handles > 4096 || hdr.handle_size == 0 || hdr.handle_size > 4096) {
        bench_fail(backend->name, "IPC consumer: no valid header");
        goto out;
    }
    c.k = hdr.handles;
    c.size = (size_t)hdr.alloc_size;
    c.handle_size = hdr.handle_size;
    c.data = calloc(c.k, c.handle_size);
    c.ptrs = calloc(c.k, sizeof(*c.ptrs));
    if (c.data == NULL || c.ptrs == NULL ||
        sock_recv_all(sock, c.data, (size_t)c.k * c.handle_size) != 0) {
        bench_fail(backend->name, "IPC consumer: receiving the handles failed");
        goto out;
    }
    if (consume(&c, mode)) {
        status = 0;
    }
out:
    if (status == 0 &&
        (sock_send_all(sock, "D", 1) != 0 ||
         sock_send_all(sock, &c.first_median, sizeof(c.first_median)) != 0)) {
        status = 1;
    }
    free(c.ptrs);
    free(c.data);
    umfMemoryProviderDestroy(c.h);
    backend->close(driver);
    return status;
}

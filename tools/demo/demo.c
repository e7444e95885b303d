// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// umf-gpu-demo: two processes share a GPU device buffer through each
// provider of umf-gpu (Level Zero, CUDA). This process is the producer; the
// consumer is this program started again (demo_consumer.c). See usage().

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <umf/providers/provider_cuda.h>
#include <umf/providers/provider_level_zero.h>

#include "demo.h"
#include "mock_locate.h"
#include "sock_io.h"

#define DEFAULT_SIZE ((size_t)4 << 20)
// How long the producer waits for the consumer's answer.
#define CONSUMER_TIMEOUT_S 120

typedef enum driver_mode_t {
    MODE_EMULATED,
    MODE_REAL,
    MODE_AUTO,
} driver_mode_t;

// The providers the demo knows, whether or not this build has them.
typedef struct provider_entry_t {
    const char *name;
    const char *key;
    const demo_driver_t *driver; // NULL: left out of this build
} provider_entry_t;

static const provider_entry_t providers[] = {
#ifdef DEMO_HAVE_LEVEL_ZERO
    {"Level Zero", "level-zero", &demo_ze_driver},
#else
    {"Level Zero", "level-zero", NULL},
#endif
#ifdef DEMO_HAVE_CUDA
    {"CUDA", "cuda", &demo_cuda_driver},
#else
    {"CUDA", "cuda", NULL},
#endif
};
#define PROVIDER_COUNT (sizeof(providers) / sizeof(providers[0]))

static mock_locate_t where;

const char *demo_emulated_ze_path(void) {
    return where.ze;
}

const char *demo_emulated_cuda_path(void) {
    return where.cuda;
}

const demo_driver_t *demo_driver_find(const char *key) {
    for (size_t i = 0; i < PROVIDER_COUNT; i++) {
        if (strcmp(providers[i].key, key) == 0) {
            return providers[i].driver;
        }
    }
    return NULL;
}

static void usage(FILE *out) {
    fprintf(
        out,
        "usage: umf-gpu-demo [--driver emulated|real|auto]\n"
        "                    [--provider all|level-zero|cuda] [--size N]\n"
        "\n"
        "Shows two processes sharing a GPU device buffer through umf-gpu, once "
        "per\n"
        "provider (Level Zero, CUDA). This process, the producer:\n"
        "  1. opens the driver and device 0, creates a DEVICE memory "
        "provider;\n"
        "  2. allocates a device buffer and fills it with the driver's copy "
        "call\n"
        "     (zeCommandListAppendMemoryCopy on an immediate command list, or\n"
        "     cuMemcpyHtoD_v2): device memory is never dereferenced on the "
        "host;\n"
        "  3. exports an IPC handle and starts a consumer (this program "
        "again),\n"
        "     handing it the handle over a socket.\n"
        "The consumer opens the handle, checks the data, writes new data and "
        "closes\n"
        "the handle; then the producer checks the change. Each step is timed.\n"
        "\n"
        "  --driver emulated  (default) umf-gpu's emulated drivers, found next "
        "to this\n"
        "                     program as umf-gpu-mock-env finds them: "
        "libze_mock.so\n"
        "                     and mock-cuda/libcuda.so.1 in %s\n"
        "                     (relative to the program's folder). The demo "
        "points\n"
        "                     ZE_ENABLE_ALT_DRIVERS and UMF_GPU_CUDA_LIB at "
        "them.\n"
        "  --driver real      the drivers installed on this machine: those the "
        "Level\n"
        "                     Zero loader finds by itself, and libcuda.so.1 "
        "from the\n"
        "                     dynamic linker's search path. A provider whose "
        "driver or\n"
        "                     device is missing fails.\n"
        "  --driver auto      per provider, the real driver when present, else "
        "the\n"
        "                     emulated one. Present means that, in a separate "
        "process,\n"
        "                     the driver loads and initialises (zeInit, "
        "cuInit), is\n"
        "                     not umf-gpu's emulated driver, and has a "
        "device.\n"
        "  --provider P       only Level Zero or only CUDA (default: all).\n"
        "  --size N           buffer size in bytes, with an optional K, M or G "
        "suffix\n"
        "                     (powers of 1024; default 4M).\n"
        "  --help             this text.\n"
        "\n"
        "A provider left out of this build (its driver headers were missing "
        "at\n"
        "configure time) is reported as skipped. Exit status: 0 when every "
        "provider\n"
        "passed or was skipped, 1 when one failed (the report names the step "
        "and why,\n"
        "with the provider's native error), 2 for bad arguments.\n"
        "\n"
        "Environment: UMF_GPU_LOG (the library's log level), UMF_GPU_ZE_LOADER "
        "(the\n"
        "Level Zero loader's path), the emulated drivers' UMF_GPU_MOCK_* "
        "variables\n"
        "(umf-gpu-mock-env --help). The consumer and the probe of --driver "
        "auto are\n"
        "this program run with --consumer and --probe, which are internal.\n",
        mock_locate_searched());
}

// Parses "<digits>[K|M|G]"; 0 on success.
static int parse_size(const char *text, size_t *out) {
    char *end = NULL;
    errno = 0;
    unsigned long long value = strtoull(text, &end, 10);
    if (errno != 0 || end == text || text[0] == '-') {
        return -1;
    }
    unsigned shift = 0;
    if (*end == 'K' || *end == 'k') {
        shift = 10;
    } else if (*end == 'M' || *end == 'm') {
        shift = 20;
    } else if (*end == 'G' || *end == 'g') {
        shift = 30;
    }
    if (shift != 0) {
        end++;
    }
    if (*end != '\0' || value == 0 || value > (SIZE_MAX >> shift)) {
        return -1;
    }
    *out = (size_t)value << shift;
    return 0;
}

static void print_size(char *buf, size_t len, size_t size) {
    if (size >= (1u << 20) && size % (1u << 20) == 0) {
        snprintf(buf, len, "%zu bytes (%zu MiB)", size, size >> 20);
    } else if (size >= 1024 && size % 1024 == 0) {
        snprintf(buf, len, "%zu bytes (%zu KiB)", size, size >> 10);
    } else {
        snprintf(buf, len, "%zu bytes", size);
    }
}

// ---------------------------------------------------------------------------
// Which driver

static const char *mode_name(driver_mode_t mode) {
    return mode == MODE_REAL ? "real" : mode == MODE_AUTO ? "auto" : "emulated";
}

// In a child: whether a real driver of this kind is present (see usage()).
static int probe_main(const demo_driver_t *driver) {
    unsetenv(driver->env);
    char info[512], device[256];
    demo_why_t why;
    if (driver->open(info, sizeof(info), device, sizeof(device), &why) != 0) {
        return 1;
    }
    bool real = !driver->is_emulated();
    driver->close(&why);
    return real ? 0 : 1;
}

static bool real_driver_present(const demo_driver_t *driver) {
    const char *args[] = {"--probe", driver->key, NULL};
    demo_why_t why;
    pid_t pid = demo_spawn_self(args, &why);
    return pid > 0 && demo_wait(pid, &why) == 0;
}

// Points the environment at the driver `mode` asks for; *emulated tells
// which one it is. Returns 0, or -1 (why).
static int choose_driver(const demo_driver_t *driver, driver_mode_t mode,
                         bool *emulated, demo_why_t *why) {
    const char *no_real = "";
    if (mode == MODE_AUTO) {
        mode = real_driver_present(driver) ? MODE_REAL : MODE_EMULATED;
        no_real = "no real driver is present, and ";
    }
    *emulated = mode == MODE_EMULATED;
    if (mode == MODE_REAL) {
        // The driver the system finds, not one named by the environment.
        unsetenv(driver->env);
        return 0;
    }
#ifndef DEMO_HAVE_MOCKS
    return demo_why(why,
                    "%sthis build has no emulated drivers "
                    "(UMF_GPU_BUILD_MOCKS=OFF)",
                    no_real);
#else
    const char *path = driver->emulated_path();
    if (path[0] == '\0') {
        return demo_why(why,
                        "%sthe emulated %s driver is not next to this program "
                        "(looked in %s relative to %s); --driver real runs "
                        "on the installed driver",
                        no_real, driver->name, mock_locate_searched(),
                        where.self_dir[0] != '\0' ? where.self_dir : "?");
    }
    if (setenv(driver->env, path, 1) != 0) {
        return demo_why(why, "setenv(%s): %s", driver->env, strerror(errno));
    }
    return 0;
#endif
}

// ---------------------------------------------------------------------------
// The producer

typedef enum outcome_t { PASSED, FAILED, SKIPPED } outcome_t;

typedef struct run_t {
    const provider_entry_t *entry;
    outcome_t outcome;
    bool emulated;
    char info[512];
    char device[256];
    size_t size;
    size_t ipc_size;
    demo_steps_t producer;
    uint32_t handover; // producer steps up to the consumer's start
    demo_reply_t consumer;
    const char *failed_side; // "producer", "consumer"
    char why[1024];          // why it failed or was skipped
} run_t;

// Starts the consumer and sends it the request; *sock_out is the
// producer's end of the socket. Returns the consumer's pid, or -1 (why).
static pid_t start_consumer(const demo_driver_t *driver,
                            const demo_request_t *req, const void *ipc_data,
                            int *sock_out, demo_why_t *why) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        demo_why(why, "socketpair: %s", strerror(errno));
        return -1;
    }
    // The consumer's end is inherited across exec; ours is not.
    char fd_text[16];
    snprintf(fd_text, sizeof(fd_text), "%d", sv[1]);
    const char *args[] = {"--consumer", driver->key, fd_text, NULL};
    pid_t pid = -1;
    if (fcntl(sv[1], F_SETFD, 0) != 0) {
        demo_why(why, "fcntl(F_SETFD): %s", strerror(errno));
        goto close_both;
    }
    pid = demo_spawn_self(args, why);
    close(sv[1]);
    if (pid < 0) {
        close(sv[0]);
        return -1;
    }
    // Where Yama restricts ptrace (ptrace_scope 1), a consumer may take the
    // producer's file descriptors (pidfd_getfd, as the Level Zero provider
    // does to open IPC handles) only if the producer names it.
    // EINVAL: no Yama, nothing to allow.
    if (prctl(PR_SET_PTRACER, (unsigned long)pid, 0, 0, 0) != 0 &&
        errno != EINVAL) {
        fprintf(stderr, "umf-gpu-demo: prctl(PR_SET_PTRACER, %d): %s\n",
                (int)pid, strerror(errno));
    }
    struct timeval timeout = {.tv_sec = CONSUMER_TIMEOUT_S};
    if (setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout)) !=
            0 ||
        sock_send_all(sv[0], req, sizeof(*req)) != 0 ||
        sock_send_all(sv[0], ipc_data, req->ipc_size) != 0) {
        demo_why(why, "sending the IPC data to the consumer: %s",
                 strerror(errno));
        kill(pid, SIGKILL);
        demo_wait(pid, &(demo_why_t){{0}});
        close(sv[0]);
        return -1;
    }
    *sock_out = sv[0];
    return pid;
close_both:
    close(sv[0]);
    close(sv[1]);
    return -1;
}

// Receives the consumer's steps and waits for it to exit. Returns 0, or -1
// when the consumer failed (its reason is in run->consumer) or did not
// answer (why).
static int finish_consumer(run_t *run, pid_t pid, int sock, demo_why_t *why) {
    demo_reply_t *reply = &run->consumer;
    int answered = sock_recv_all(sock, reply, sizeof(*reply)) == 0 &&
                   reply->magic == DEMO_MAGIC &&
                   reply->steps.count <= DEMO_MAX_STEPS;
    int err = errno;
    close(sock);
    if (!answered) {
        memset(reply, 0, sizeof(*reply));
        demo_step_begin(&reply->steps, "answer the producer");
        const char *reason = err == EAGAIN || err == EWOULDBLOCK
                                 ? "it did not answer in time"
                                 : "it gave no valid answer";
        if (err == EAGAIN || err == EWOULDBLOCK) {
            kill(pid, SIGKILL);
        }
        demo_why_t exit_why = {{0}};
        if (demo_wait(pid, &exit_why) != 0) {
            demo_why(why, "%s; %s", reason, exit_why.text);
        } else {
            demo_why(why, "%s", reason);
        }
        return demo_step_end(&reply->steps, -1, why);
    }
    demo_steps_t *steps = &reply->steps;
    demo_step_begin(steps, "exit");
    demo_why_t exit_why = {{0}};
    demo_step_end(steps, demo_wait(pid, &exit_why), &exit_why);
    return steps->failed ? -1 : 0;
}

// Runs the provider's producer and consumer; fills *run.
static void run_provider(run_t *run, driver_mode_t mode) {
    const demo_driver_t *driver = run->entry->driver;
    demo_steps_t *steps = &run->producer;
    demo_why_t why = {{0}};
    umf_memory_provider_handle_t provider = NULL;
    void *buffer = NULL;
    unsigned char *host = NULL;
    unsigned char ipc_data[DEMO_IPC_DATA_MAX];
    bool exported = false;
    umf_result_t res;
    int ret, sock = -1;
    pid_t pid;

    if (driver == NULL || driver->ops() == NULL) {
        run->outcome = SKIPPED;
        snprintf(run->why, sizeof(run->why),
                 "this build has no %s provider (its driver headers were not "
                 "found at configure time)",
                 run->entry->name);
        return;
    }
#ifndef DEMO_HAVE_MOCKS
    if (mode == MODE_EMULATED) {
        run->outcome = SKIPPED;
        snprintf(
            run->why, sizeof(run->why),
            "this build has no emulated drivers (UMF_GPU_BUILD_MOCKS=OFF); "
            "run with --driver real");
        return;
    }
#endif
    run->outcome = FAILED;
    run->failed_side = "producer";
    if (choose_driver(driver, mode, &run->emulated, &why) != 0) {
        snprintf(run->why, sizeof(run->why), "%s", why.text);
        return;
    }

    demo_step_begin(steps, "open driver, context on device 0");
    ret = driver->open(run->info, sizeof(run->info), run->device,
                       sizeof(run->device), &why);
    if (ret == 0 && driver->is_emulated() != run->emulated) {
        ret = demo_why(&why,
                       run->emulated
                           ? "%s is not the emulated driver that was asked for"
                           : "%s is umf-gpu's emulated driver, not a real one "
                             "(does LD_LIBRARY_PATH name its folder?)",
                       run->info);
        driver->close(&(demo_why_t){{0}});
    }
    if (demo_step_end(steps, ret, &why) != 0) {
        goto report;
    }

    demo_step_begin(steps, "create provider");
    if (demo_step_end(steps, driver->create_provider(&provider, &why), &why) !=
        0) {
        goto release;
    }

    demo_step_begin(steps, "allocate device buffer");
    res = umfMemoryProviderAlloc(provider, run->size, 0, &buffer);
    if (res != UMF_RESULT_SUCCESS) {
        char call[96];
        snprintf(call, sizeof(call), "umfMemoryProviderAlloc(size=%zu)",
                 run->size);
        demo_why_umf(&why, call, res, provider, NULL);
        buffer = NULL;
    }
    if (demo_step_end(steps, res == UMF_RESULT_SUCCESS ? 0 : -1, &why) != 0) {
        goto release;
    }

    host = malloc(run->size);
    if (host != NULL) {
        demo_pattern_fill(host, run->size, 1);
    }
    demo_step_begin(steps, "fill buffer (copy host -> device)");
    if (host == NULL) {
        ret = demo_why(&why, "out of host memory (%zu bytes)", run->size);
    } else {
        ret = driver->to_device(buffer, host, run->size, &why);
    }
    if (demo_step_end(steps, ret, &why) != 0) {
        goto release;
    }

    demo_step_begin(steps, "export IPC handle");
    res = umfMemoryProviderGetIPCHandleSize(provider, &run->ipc_size);
    if (res != UMF_RESULT_SUCCESS) {
        ret = demo_why_umf(&why, "umfMemoryProviderGetIPCHandleSize", res,
                           provider, NULL);
    } else if (run->ipc_size == 0 || run->ipc_size > sizeof(ipc_data)) {
        ret = demo_why(&why, "the IPC data size %zu is out of range",
                       run->ipc_size);
    } else {
        res = umfMemoryProviderGetIPCHandle(provider, buffer, run->size,
                                            ipc_data);
        ret = res == UMF_RESULT_SUCCESS
                  ? 0
                  : demo_why_umf(&why, "umfMemoryProviderGetIPCHandle", res,
                                 provider, NULL);
    }
    if (demo_step_end(steps, ret, &why) != 0) {
        goto release;
    }
    exported = true;

    demo_step_begin(steps, "start consumer, hand over IPC data");
    demo_request_t req = {.magic = DEMO_MAGIC,
                          .ipc_size = (uint32_t)run->ipc_size,
                          .buffer_size = run->size,
                          .seed_in = 1,
                          .seed_out = 2};
    pid = start_consumer(driver, &req, ipc_data, &sock, &why);
    if (demo_step_end(steps, pid < 0 ? -1 : 0, &why) != 0) {
        goto release;
    }
    run->handover = steps->count;
    if (finish_consumer(run, pid, sock, &why) != 0) {
        run->failed_side = "consumer";
        goto release;
    }

    demo_step_begin(steps, "verify the change (copy device -> host)");
    ret = driver->to_host(host, buffer, run->size, &why);
    if (ret == 0) {
        ret = demo_pattern_check(host, run->size, 2, &why);
    }
    demo_step_end(steps, ret, &why);

release:
    demo_step_begin(steps, "release handle, buffer, provider, context");
    ret = 0;
    if (exported) {
        res = umfMemoryProviderPutIPCHandle(provider, ipc_data);
        if (res != UMF_RESULT_SUCCESS) {
            ret = demo_why_umf(&why, "umfMemoryProviderPutIPCHandle", res,
                               provider, NULL);
        }
    }
    if (buffer != NULL) {
        res = umfMemoryProviderFree(provider, buffer, run->size);
        if (res != UMF_RESULT_SUCCESS && ret == 0) {
            ret = demo_why_umf(&why, "umfMemoryProviderFree", res, provider,
                               NULL);
        }
    }
    umfMemoryProviderDestroy(provider);
    if (driver->close(&why) != 0) {
        ret = -1;
    }
    demo_step_end(steps, ret, &why);
    free(host);

report:
    if (run->failed_side != NULL && strcmp(run->failed_side, "consumer") == 0) {
        snprintf(run->why, sizeof(run->why), "%s", run->consumer.steps.why);
    } else if (steps->failed) {
        snprintf(run->why, sizeof(run->why), "%s", steps->why);
    }
    if (!steps->failed && !run->consumer.steps.failed) {
        run->outcome = PASSED;
        run->failed_side = NULL;
    }
}

// ---------------------------------------------------------------------------
// The report

static void print_steps(const char *side, const demo_steps_t *steps,
                        uint32_t from, uint32_t to) {
    for (uint32_t i = from; i < to && i < steps->count; i++) {
        const demo_step_t *s = &steps->step[i];
        printf("  %-9s %-42s %-6s %8.3f ms\n", side, s->name,
               s->ok ? "ok" : "FAILED", s->ms);
    }
}

// The first failed step of `steps`, or NULL.
static const char *failed_step(const demo_steps_t *steps) {
    for (uint32_t i = 0; i < steps->count; i++) {
        if (!steps->step[i].ok) {
            return steps->step[i].name;
        }
    }
    return NULL;
}

static void print_run(const run_t *run) {
    const provider_entry_t *e = run->entry;
    if (run->outcome == SKIPPED) {
        printf("%s provider: skipped: %s\n", e->name, run->why);
        return;
    }
    printf("%s provider, %s driver\n", e->name,
           run->emulated ? "emulated" : "real");
    if (run->info[0] != '\0') {
        printf("  driver    %s\n", run->info);
        printf("  device    %s\n", run->device);
    }
    char size[64];
    print_size(size, sizeof(size), run->size);
    printf("  buffer    %s of device memory", size);
    if (run->ipc_size != 0) {
        printf(", IPC data %zu bytes", run->ipc_size);
    }
    printf("; copies with %s\n", e->driver->entry);
    // In the order they ran: the consumer's between the producer's
    // hand-over and its check of the change.
    uint32_t handover =
        run->handover != 0 ? run->handover : run->producer.count;
    print_steps("producer", &run->producer, 0, handover);
    print_steps("consumer", &run->consumer.steps, 0, DEMO_MAX_STEPS);
    print_steps("producer", &run->producer, handover, DEMO_MAX_STEPS);
    if (run->outcome == PASSED) {
        printf("  passed\n");
        return;
    }
    const demo_steps_t *side =
        run->failed_side != NULL && strcmp(run->failed_side, "consumer") == 0
            ? &run->consumer.steps
            : &run->producer;
    const char *step = failed_step(side);
    char where_text[160];
    if (step != NULL) {
        snprintf(where_text, sizeof(where_text), "%s step \"%s\"",
                 run->failed_side, step);
    } else {
        snprintf(where_text, sizeof(where_text), "%s, choosing the driver",
                 run->failed_side != NULL ? run->failed_side : "producer");
    }
    printf("  FAILED at %s: %s\n", where_text, run->why);
    fprintf(stderr, "umf-gpu-demo: %s provider FAILED at %s: %s\n", e->name,
            where_text, run->why);
}

// ---------------------------------------------------------------------------
// main

static int consumer_entry(int argc, char **argv) {
    // umf-gpu-demo --consumer <provider> <socket fd>
    const demo_driver_t *driver = argc == 4 ? demo_driver_find(argv[2]) : NULL;
    char *end = NULL;
    long fd = argc == 4 ? strtol(argv[3], &end, 10) : -1;
    if (driver == NULL || end == NULL || *end != '\0' || fd < 0 ||
        fd > INT32_MAX) {
        fprintf(stderr, "umf-gpu-demo: --consumer is internal: it is how the "
                        "demo starts its second process\n");
        return 2;
    }
    return demo_consumer_main(driver, (int)fd);
}

static int probe_entry(int argc, char **argv) {
    // umf-gpu-demo --probe <provider>
    const demo_driver_t *driver = argc == 3 ? demo_driver_find(argv[2]) : NULL;
    if (driver == NULL) {
        fprintf(stderr, "umf-gpu-demo: --probe is internal: it is how "
                        "--driver auto looks for a real driver\n");
        return 2;
    }
    return probe_main(driver);
}

__attribute__((format(printf, 1, 2))) static int bad_usage(const char *fmt,
                                                           ...) {
    va_list args;
    va_start(args, fmt);
    fprintf(stderr, "umf-gpu-demo: ");
    vfprintf(stderr, fmt, args);
    fprintf(stderr, "\n");
    va_end(args);
    usage(stderr);
    return 2;
}

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "--consumer") == 0) {
        return consumer_entry(argc, argv);
    }
    if (argc >= 2 && strcmp(argv[1], "--probe") == 0) {
        return probe_entry(argc, argv);
    }

    driver_mode_t mode = MODE_EMULATED;
    const char *only = NULL;
    size_t size = DEFAULT_SIZE;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(arg, "--driver") != 0 && strcmp(arg, "--provider") != 0 &&
            strcmp(arg, "--size") != 0) {
            return bad_usage("unknown argument '%s'", arg);
        }
        if (value == NULL) {
            return bad_usage("%s needs a value", arg);
        }
        i++;
        if (strcmp(arg, "--driver") == 0) {
            if (strcmp(value, "emulated") == 0) {
                mode = MODE_EMULATED;
            } else if (strcmp(value, "real") == 0) {
                mode = MODE_REAL;
            } else if (strcmp(value, "auto") == 0) {
                mode = MODE_AUTO;
            } else {
                return bad_usage("--driver: '%s' is not emulated, real or auto",
                                 value);
            }
        } else if (strcmp(arg, "--provider") == 0) {
            if (strcmp(value, "all") == 0) {
                only = NULL;
            } else if (strcmp(value, "level-zero") == 0 ||
                       strcmp(value, "cuda") == 0) {
                only = value;
            } else {
                return bad_usage(
                    "--provider: '%s' is not all, level-zero or cuda", value);
            }
        } else if (parse_size(value, &size) != 0) {
            return bad_usage("--size: '%s' is not a size such as 4096, 64K, "
                             "4M or 1G",
                             value);
        }
    }

    if (mock_locate(&where) != 0) {
        // Only the emulated drivers are found through it; choose_driver()
        // reports them missing.
        fprintf(stderr, "umf-gpu-demo: cannot find its own location: %s\n",
                strerror(errno));
    }

    printf("umf-gpu-demo: two processes share a GPU device buffer through "
           "umf-gpu's IPC\n(driver: %s; --help explains)\n\n",
           mode_name(mode));
    fflush(stdout);

    int passed = 0, failed = 0, skipped = 0;
    char summary[256] = "";
    for (size_t i = 0; i < PROVIDER_COUNT; i++) {
        if (only != NULL && strcmp(only, providers[i].key) != 0) {
            continue;
        }
        run_t run = {.entry = &providers[i], .size = size};
        run_provider(&run, mode);
        print_run(&run);
        printf("\n");
        fflush(stdout);
        const char *word = run.outcome == PASSED   ? "passed"
                           : run.outcome == FAILED ? "FAILED"
                                                   : "skipped";
        passed += run.outcome == PASSED;
        failed += run.outcome == FAILED;
        skipped += run.outcome == SKIPPED;
        size_t len = strlen(summary);
        snprintf(summary + len, sizeof(summary) - len, "%s%s %s",
                 len != 0 ? ", " : "", providers[i].name, word);
    }
    printf("umf-gpu-demo: %s\n", summary);
    if (passed == 0 && failed == 0) {
        printf("umf-gpu-demo: no provider ran (%d skipped)\n", skipped);
    }
    return failed != 0 ? 1 : 0;
}

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// umf-gpu-bench: options, the processes of a run, and the main process that
// starts one run child per provider and memory mode and collects what they
// measured. See bench.h for the roles and --help for the use.

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "bench_spawn.h"
#include "mock_locate.h"

// Device memory for the arena run: room for the largest number of live
// 64-byte allocations (each takes a page of the emulated device).
#define ARENA_DEVICE_MEM "16G"

static const bench_backend_t *const backends[] = {&bench_backend_ze,
                                                  &bench_backend_cuda};
#define BACKEND_COUNT (sizeof(backends) / sizeof(backends[0]))

static void usage(FILE *out) {
    fprintf(
        out,
        "usage: umf-gpu-bench [--quick] [--json FILE] [--markdown FILE]\n"
        "                     [--provider ze|cuda|all]\n"
        "                     [--reps N] [--warmup N] [--rep-ms MS]\n"
        "                     [--clock cpu|wall] [--live N[,N...]]\n"
        "                     [--residency-live N]\n"
        "                     [--ipc-handles N] [--ipc-size BYTES]\n"
        "                     [--system-drivers]\n"
        "\n"
        "Measures the Level Zero and CUDA DEVICE memory providers of umf-gpu "
        "against\nthe same driver calls made directly, in one run:\n"
        "  1. alloc+free pairs of 64 B, 4 KiB and 2 MiB: ns per pair through "
        "the\n     provider and through the raw driver call, their difference "
        "(the\n     provider's added cost) and their ratio;\n"
        "  2. the random pattern with 1 000, 100 000 and 1 000 000 live "
        "allocations:\n     each step frees a random one and allocates 64 B.."
        "4 KiB in its place\n     (as RMM's random_allocations), ns per step "
        "through the provider and\n     through the raw driver, added ns and "
        "ratio, and one cache miss at that\n     scale (a pointer chase over "
        "as much memory as the table and the\n     driver's records);\n"
        "  3. 1 and 2 threads: throughput and the provider/raw ratio;\n"
        "  3b. Level Zero: another thread's alloc+free during resident device "
        "changes\n     over 400 000 live allocations (p50, p99, max);\n"
        "  4. IPC across two processes: get+put in the producer; first open, "
        "cached\n     re-open and close in the consumer; first/cached "
        "ratio;\n"
        "  5. get_last_native_error after a failure, ns per call per "
        "thread.\n"
        "On the emulated drivers, every measurement runs in the arena memory "
        "mode and\nthe pairs and IPC again in the memfd mode, each in a child "
        "process of its own\n(UMF_GPU_MOCK_MEMORY is read when the driver "
        "loads). Each measurement warms\nup, then repeats; it reports the "
        "median and the 10th and 90th percentiles of\nthe repetitions, the "
        "two paths alternating repetition by repetition.\n"
        "\n"
        "Drivers: the ones the environment names (ZE_ENABLE_ALT_DRIVERS for "
        "the Level\nZero loader, UMF_GPU_CUDA_LIB for libcuda); where a "
        "variable is unset, the\nemulated driver of this build or install "
        "(found next to this program).\nFor a real GPU: UMF_GPU_CUDA_LIB="
        "/path/to/libcuda.so.1 umf-gpu-bench --provider cuda\n"
        "\n"
        "  --quick           a reduced set (fewer, shorter repetitions; up to "
        "10 000\n                    live allocations), in well under 30 s\n"
        "  --json FILE       also write every figure to FILE as one JSON "
        "document\n"
        "  --markdown FILE   also write the table of targets to FILE (the "
        "table of\n                    docs/performance.md)\n"
        "  --provider P      ze, cuda or all (default all)\n"
        "  --reps N          measured repetitions (default 41; --quick 7)\n"
        "  --warmup N        warm-up repetitions (default 3; --quick 1)\n"
        "  --rep-ms MS       target duration of a repetition (default 3; "
        "--quick 0.5)\n"
        "  --clock C         cpu: the thread's CPU time (default; steady on a "
        "busy\n                    machine), wall: elapsed time\n"
        "  --live LIST       live allocation counts for the random pattern "
        "(default\n                    1000,100000,1000000; --quick "
        "1000,10000)\n"
        "  --residency-live N  live allocations during the resident device "
        "changes\n                    (default 400000; --quick 5000)\n"
        "  --ipc-handles N   allocations shared per IPC repetition (default "
        "64)\n"
        "  --ipc-size BYTES  size of each shared allocation (default 2 MiB: "
        "one\n                    allocation granule of a GPU)\n"
        "  --system-drivers  never point an unset variable at an emulated "
        "driver\n"
        "  --help            this text\n"
        "\n"
        "\n"
        "Measurements (the JSON \"name\"; each also has provider, mode, "
        "size,\nthreads, live, median_ns, p10_ns, p90_ns):\n"
        "  alloc_free_provider  ns per alloc+free pair through the provider; "
        "ratio:\n                       provider/raw; throughput_per_s: "
        "pairs per second\n"
        "  alloc_free_raw       the same pair of raw driver calls\n"
        "  alloc_free_added     provider minus raw, repetition by "
        "repetition\n"
        "  random_provider      ns per random step through the provider "
        "(size null;\n                       live: L); ratio: provider/raw\n"
        "  random_raw           the same step on raw driver calls\n"
        "  random_added         provider minus raw, repetition by "
        "repetition\n"
        "  random_miss          one dependent load (a pointer chase) over "
        "as many bytes\n                       (size) as the ownership table "
        "and the driver's records\n                       hold at L live: "
        "this machine's cache miss at that\n                       scale; "
        "random_added's target from 100 000 live on is it\n"
        "                       plus 15 ns\n"
        "  residency_idle       one alloc+free (wall ns) with no change "
        "running: p99_ns,\n                       max_ns\n"
        "  residency_stall      the same while another thread changes the "
        "resident\n                       devices\n"
        "  residency_change     one resident device change, wall ns\n"
        "  native_error         one get_last_native_error after a failed "
        "alloc\n"
        "  ipc_get_put          get_ipc_handle + put_ipc_handle of a fresh "
        "allocation\n"
        "  ipc_get_put_again    the same on an allocation already shared\n"
        "  ipc_open_first       open_ipc_handle in another process, not "
        "cached; ratio:\n                       first/cached\n"
        "  ipc_open_cached      a re-open of an open handle (cache hit)\n"
        "  ipc_open_first_socket  the first open with the fd taken over the "
        "exporter's\n                       fd server "
        "(UMF_GPU_IPC_FD_TRANSFER=socket); ratio:\n"
        "                       socket/pidfd first open\n"
        "  ipc_open_cached_socket the cached open of that run (no socket "
        "traffic)\n"
        "  ipc_close_ref        a close that leaves the mapping to other "
        "opens\n"
        "  ipc_close_last       the last close, which unmaps\n"
        "  ipc_fd_socket_take   one fd taken over an fd server (this "
        "process's own)\n"
        "  ipc_fd_socket_auth   the client's proof that the server is the "
        "exporter,\n                       alone; ratio: its share of a "
        "take\n"
        "  ipc_fd_flood_*       single takes (wall ns, p99_ns, max_ns) with "
        "no flood\n                       (none), while a process connects "
        "and holds (hold), or\n                       floods malformed "
        "requests (malformed); ratio: the\n                       fraction "
        "served within 1 s\n"
        "  vmm_alloc_free_*     CUDA, modes vmm_fd and vmm_fab: alloc+free of "
        "64 B through\n                       a provider in that VMM mode "
        "against the raw VMM calls\n                       (cuMemCreate, "
        "Reserve, Map, SetAccess, Release; Unmap,\n                       "
        "AddressFree); the ipc_* rows of those modes share that\n"
        "                       provider's memory (a POSIX fd, a fabric "
        "handle)\n"
        "  machine_reference    a fixed CPU loop (ns) timed before every "
        "measurement of\n                       a run; ratio: slowest / "
        "fastest (above 1.25 the machine's\n                       own speed "
        "changed during the run, and a warning says so)\n"
        "Modes: arena, memfd (emulated driver), real (any other driver); "
        "vmm_fd and\nvmm_fab (the CUDA provider's VMM modes, in the arena or "
        "real run). The arena run\ngets "
        "UMF_GPU_MOCK_DEVICE_MEM=" ARENA_DEVICE_MEM
        " unless it is set, for the live\nallocations (each takes a page).\n"
        "\n"
        "The table ends with one summary line per headline ratio and its "
        "target (or\n\"a figure\" where it has none).\nExit status: 0, or 1 if "
        "a measurement failed, 2 for bad "
        "options.\n");
}

void bench_options_defaults(bench_options_t *o, bool quick) {
    memset(o, 0, sizeof(*o));
    o->quick = quick;
    o->clock = BENCH_CLOCK_CPU;
    o->reps = quick ? 7 : 41;
    o->warmup = quick ? 1 : 3;
    o->rep_ns = quick ? 0.5e6 : 3e6;
    o->providers = BENCH_PROVIDER_ZE | BENCH_PROVIDER_CUDA;
    o->live[0] = 1000;
    // --quick, the smoke test of every build (sanitizers too), keeps the
    // scale small.
    o->live[1] = quick ? 10000 : 100000;
    o->live[2] = 1000000;
    o->live_count = quick ? 2 : 3;
    o->residency_live = quick ? 5000 : 400000;
    o->ipc_handles = quick ? 8 : 64;
    o->ipc_cached = quick ? 4 : 16;
    o->ipc_size = 2u << 20;
    o->ipc_reps = quick ? 5 : 31;
}

// ---- Option parsing --------------------------------------------------------

static bool parse_ulong(const char *text, unsigned long min, unsigned long max,
                        unsigned long *out) {
    if (text == NULL || text[0] < '0' || text[0] > '9') {
        return false;
    }
    char *end = NULL;
    errno = 0;
    unsigned long v = strtoul(text, &end, 10);
    if (errno != 0 || *end != '\0' || v < min || v > max) {
        return false;
    }
    *out = v;
    return true;
}

static bool parse_live(const char *text, bench_options_t *o) {
    char buf[256];
    if (text == NULL || strlen(text) >= sizeof(buf)) {
        return false;
    }
    strcpy(buf, text);
    o->live_count = 0;
    char *save = NULL;
    for (char *item = strtok_r(buf, ",", &save); item != NULL;
         item = strtok_r(NULL, ",", &save)) {
        unsigned long v;
        if (o->live_count == BENCH_MAX_LIVE_LEVELS ||
            !parse_ulong(item, 1, 100000000, &v)) {
            return false;
        }
        o->live[o->live_count++] = v;
    }
    return true;
}

typedef enum role_t { ROLE_MAIN, ROLE_RUN, ROLE_IPC_CONSUMER } role_t;

typedef struct args_t {
    bench_options_t o;
    role_t role;
    const char *mode; // ROLE_RUN, ROLE_IPC_CONSUMER
    int sock;         // ROLE_IPC_CONSUMER
    bool provider_given;
} args_t;

// Returns 0 to go on, or the exit status (--help: 0 after printing).
static int parse_args(int argc, char **argv, args_t *a, bool *exit_now) {
    bool quick = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            quick = true;
        }
    }
    bench_options_defaults(&a->o, quick);
    a->role = ROLE_MAIN;
    a->mode = NULL;
    a->sock = -1;
    *exit_now = false;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        unsigned long v = 0;
        bool takes = true, ok = true;
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            usage(stdout);
            *exit_now = true;
            return 0;
        } else if (strcmp(opt, "--quick") == 0) {
            takes = false;
        } else if (strcmp(opt, "--system-drivers") == 0) {
            a->o.system_drivers = true;
            takes = false;
        } else if (strcmp(opt, "--json") == 0) {
            ok = val != NULL && val[0] != '\0';
            a->o.json_path = val;
        } else if (strcmp(opt, "--markdown") == 0) {
            ok = val != NULL && val[0] != '\0';
            a->o.md_path = val;
        } else if (strcmp(opt, "--provider") == 0) {
            a->provider_given = true;
            if (val != NULL && strcmp(val, "ze") == 0) {
                a->o.providers = BENCH_PROVIDER_ZE;
            } else if (val != NULL && strcmp(val, "cuda") == 0) {
                a->o.providers = BENCH_PROVIDER_CUDA;
            } else if (val != NULL && strcmp(val, "all") == 0) {
                a->o.providers = BENCH_PROVIDER_ZE | BENCH_PROVIDER_CUDA;
                a->provider_given = false;
            } else {
                ok = false;
            }
        } else if (strcmp(opt, "--reps") == 0) {
            ok = parse_ulong(val, 1, BENCH_MAX_REPS - 1, &v);
            a->o.reps = (unsigned)v;
        } else if (strcmp(opt, "--warmup") == 0) {
            ok = parse_ulong(val, 0, BENCH_MAX_REPS - 1, &v);
            a->o.warmup = (unsigned)v;
        } else if (strcmp(opt, "--rep-ms") == 0) {
            char *end = NULL;
            double ms = val != NULL ? strtod(val, &end) : 0;
            ok = val != NULL && end != val && *end == '\0' && ms >= 0.01 &&
                 ms <= 1000;
            a->o.rep_ns = ms * 1e6;
        } else if (strcmp(opt, "--clock") == 0) {
            if (val != NULL && strcmp(val, "cpu") == 0) {
                a->o.clock = BENCH_CLOCK_CPU;
            } else if (val != NULL && strcmp(val, "wall") == 0) {
                a->o.clock = BENCH_CLOCK_WALL;
            } else {
                ok = false;
            }
        } else if (strcmp(opt, "--live") == 0) {
            ok = parse_live(val, &a->o);
        } else if (strcmp(opt, "--residency-live") == 0) {
            ok = parse_ulong(val, 1, 100000000, &v);
            a->o.residency_live = v;
        } else if (strcmp(opt, "--ipc-handles") == 0) {
            ok = parse_ulong(val, 1, 4096, &v);
            a->o.ipc_handles = (unsigned)v;
        } else if (strcmp(opt, "--ipc-size") == 0) {
            ok = parse_ulong(val, 1, 1ul << 30, &v);
            a->o.ipc_size = v;
        } else if (strcmp(opt, "--ipc-cached") == 0) { // internal
            ok = parse_ulong(val, 1, 4096, &v);
            a->o.ipc_cached = (unsigned)v;
        } else if (strcmp(opt, "--ipc-reps") == 0) { // internal
            ok = parse_ulong(val, 1, BENCH_MAX_REPS - 1, &v);
            a->o.ipc_reps = (unsigned)v;
        } else if (strcmp(opt, "--run") == 0) { // internal: a run child
            a->role = ROLE_RUN;
            a->mode = val;
            ok = val != NULL;
        } else if (strcmp(opt, "--ipc-consumer") == 0) { // internal
            a->role = ROLE_IPC_CONSUMER;
            ok = parse_ulong(val, 0, INT_MAX, &v);
            a->sock = (int)v;
        } else if (strcmp(opt, "--mode") == 0) { // internal
            a->mode = val;
            ok = val != NULL;
        } else {
            fprintf(stderr, "umf-gpu-bench: unknown option '%s' (--help)\n",
                    opt);
            return 2;
        }
        if (!ok) {
            fprintf(stderr,
                    "umf-gpu-bench: %s needs a valid value, not '%s' "
                    "(--help)\n",
                    opt, val != NULL && takes ? val : "");
            return 2;
        }
        i += takes ? 1 : 0;
    }
    if (a->o.warmup + a->o.reps > BENCH_MAX_REPS ||
        a->o.warmup + a->o.ipc_reps > BENCH_MAX_REPS) {
        fprintf(stderr, "umf-gpu-bench: --warmup plus --reps is at most %d\n",
                BENCH_MAX_REPS);
        return 2;
    }
    return 0;
}

// ---- The main process ------------------------------------------------------

// Points `var` at `path` (an emulated driver next to this program) unless
// the variable is set or there is no such driver.
static void default_driver(const char *var, const char *path) {
    const char *now = getenv(var);
    if ((now == NULL || now[0] == '\0') && path[0] != '\0') {
        setenv(var, path, 1);
    }
}

// Runs one run child and adds what it reports. *real tells whether it ran
// on a real driver (then the other memory modes mean nothing).
static bool run_child(const bench_options_t *o, const bench_backend_t *b,
                      const char *mode, bench_report_t *rep, bool *real) {
    fprintf(stderr, "umf-gpu-bench: measuring %s (%s)...\n", b->title, mode);
    const char *role[] = {"--run", mode, "--provider", b->name, NULL};
    const char *env[5] = {NULL};
    char mem_env[64], dev_env[64];
    snprintf(mem_env, sizeof(mem_env), "UMF_GPU_MOCK_MEMORY=%s", mode);
    size_t e = 0;
    env[e++] = mem_env;
    const char *dev = getenv("UMF_GPU_MOCK_DEVICE_MEM");
    if (strcmp(mode, "arena") == 0 && (dev == NULL || dev[0] == '\0')) {
        snprintf(dev_env, sizeof(dev_env), "UMF_GPU_MOCK_DEVICE_MEM=%s",
                 ARENA_DEVICE_MEM);
        env[e++] = dev_env;
    }
    bench_child_t child;
    if (!bench_spawn(o, role, env, -1, true, &child)) {
        return false;
    }
    FILE *in = fdopen(child.out_fd, "r");
    if (in == NULL) {
        close(child.out_fd);
        (void)bench_wait(&child);
        return false;
    }
    char line[1024];
    bool ok = true;
    *real = false;
    while (fgets(line, sizeof(line), in) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        bench_result_t r;
        if (line[0] == 'M' && bench_parse_result(line, &r)) {
            ok &= bench_report_add(rep, &r);
        } else if (line[0] == 'I' && line[1] == ' ') {
            char provider[16], mode_seen[16], kind[16];
            int used = 0;
            if (sscanf(line + 2, "%15s %15s %15s %n", provider, mode_seen, kind,
                       &used) == 3) {
                *real = strcmp(kind, "real") == 0;
                if (rep->driver_count < 8) {
                    snprintf(rep->drivers[rep->driver_count++],
                             sizeof(rep->drivers[0]), "%s %s: %s driver %s",
                             provider, mode_seen, kind, line + 2 + used);
                }
            }
        } else {
            fprintf(stderr, "%s\n", line);
        }
    }
    fclose(in);
    int status = bench_wait(&child);
    if (status != 0) {
        fprintf(stderr,
                "umf-gpu-bench: the %s run (%s) failed (exit status %d)\n",
                b->name, mode, status);
        return false;
    }
    return ok;
}

static int main_process(const args_t *a) {
    const bench_options_t *o = &a->o;
    mock_locate_t where;
    if (!o->system_drivers && mock_locate(&where) == 0) {
        default_driver("ZE_ENABLE_ALT_DRIVERS", where.ze);
        default_driver("UMF_GPU_CUDA_LIB", where.cuda);
    }
    bench_report_t rep = {0};
    int ran = 0;
    for (size_t i = 0; i < BACKEND_COUNT; i++) {
        const bench_backend_t *b = backends[i];
        if ((o->providers & b->bit) == 0) {
            continue;
        }
        if (b->ops() == NULL) {
            fprintf(stderr,
                    "umf-gpu-bench: this build has no %s provider; skipped\n",
                    b->title);
            rep.failures += a->provider_given;
            continue;
        }
        static const char *const modes[] = {"arena", "memfd"};
        for (size_t m = 0; m < 2; m++) {
            bool real = false;
            if (!run_child(o, b, modes[m], &rep, &real)) {
                rep.failures++;
                break;
            }
            ran++;
            if (real) {
                break;
            }
        }
    }
    bench_report_print(&rep, o);
    if (o->json_path != NULL &&
        !bench_report_write_json(&rep, o, o->json_path)) {
        rep.failures++;
    }
    if (o->md_path != NULL &&
        !bench_report_write_markdown(&rep, o, o->md_path)) {
        rep.failures++;
    }
    free(rep.results);
    if (ran == 0) {
        fprintf(stderr, "umf-gpu-bench: nothing was measured\n");
        return 1;
    }
    return rep.failures > 0 ? 1 : 0;
}

static const bench_backend_t *backend_of(unsigned providers) {
    for (size_t i = 0; i < BACKEND_COUNT; i++) {
        if (providers == backends[i]->bit) {
            return backends[i];
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    args_t a;
    bool exit_now = false;
    int status = parse_args(argc, argv, &a, &exit_now);
    if (status != 0 || exit_now) {
        return status;
    }
    if (a.role == ROLE_MAIN) {
        return main_process(&a);
    }
    const bench_backend_t *b = backend_of(a.o.providers);
    if (b == NULL || b->ops() == NULL || a.mode == NULL) {
        fprintf(stderr, "umf-gpu-bench: an internal role needs one built "
                        "provider and a mode\n");
        return 2;
    }
    if (a.role == ROLE_RUN) {
        return bench_run_child(&a.o, b, a.mode);
    }
    return bench_ipc_consumer(&a.o, b, a.mode, a.sock);
}

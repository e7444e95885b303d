// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// umf-gpu-demo: what its parts share.
//
//   demo.c           options, driver choice, the producer, the report
//   demo_consumer.c  the consumer (this program re-executed)
//   demo_process.c   starting the consumer and the probe; the bytes
//                    between producer and consumer
//   demo_steps.c     timed steps, the data pattern both sides check
//   demo_why.c       failure texts: umf results with the provider's native
//                    error, driver results
//   demo_ze.c        Level Zero: loader, device, context, copies, provider
//   demo_cuda.c      CUDA: libcuda, device, context, copies, provider

#ifndef UMF_GPU_DEMO_H
#define UMF_GPU_DEMO_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <umf/memory_provider.h>

// Why something failed: one line, written once where the reason is known.
typedef struct demo_why_t {
    char text[1024];
} demo_why_t;

// Writes the reason; always returns -1, so that `return demo_why(...)` fails.
int demo_why(demo_why_t *why, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

// The reason for a umf call that returned `res`: the call, the result's
// name, and for UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC the provider's
// native code and message. `provider` may be NULL (a failed create); `ops`
// then answers, as our providers keep the native error per thread. Returns
// -1.
int demo_why_umf(demo_why_t *why, const char *call, umf_result_t res,
                 umf_memory_provider_handle_t provider,
                 const umf_memory_provider_ops_t *ops);

const char *demo_result_name(umf_result_t res);

// One GPU driver as the demo uses it. Every function returning int returns
// 0, or -1 after writing why into `why`.
typedef struct demo_driver_t {
    const char *name;  // "Level Zero"
    const char *key;   // "level-zero", for --provider and the consumer
    const char *env;   // the variable naming the emulated driver
    const char *entry; // the copy entry point, for the report
    // The provider's ops table; NULL in a library built without it.
    const umf_memory_provider_ops_t *(*ops)(void);
    // The emulated driver's path, found next to this program; "" if none.
    const char *(*emulated_path)(void);
    // Loads the driver (as the environment names it), initialises it and
    // opens device 0 with a context. `info` gets the library and version,
    // `device` the device's name.
    int (*open)(char *info, size_t info_len, char *device, size_t device_len,
                demo_why_t *why);
    // Whether the driver open() loaded is an emulated one.
    bool (*is_emulated)(void);
    // Creates a DEVICE memory provider on the opened device and context.
    int (*create_provider)(umf_memory_provider_handle_t *out, demo_why_t *why);
    // Copies with the driver's copy call; never dereferences device memory.
    int (*to_device)(void *dst, const void *src, size_t size, demo_why_t *why);
    int (*to_host)(void *dst, const void *src, size_t size, demo_why_t *why);
    // Writes demo_pattern(i, seed) to the `size` bytes at `dst` with a
    // kernel on the device: 0, -1 (why), or 1 where no kernel can run
    // (the reason in why; the caller copies instead). NULL: never.
    int (*pattern_kernel)(void *dst, size_t size, uint32_t seed,
                          demo_why_t *why);
    // Releases what open() made; 0 or -1 (why).
    int (*close)(demo_why_t *why);
} demo_driver_t;

#ifdef DEMO_HAVE_LEVEL_ZERO
extern const demo_driver_t demo_ze_driver;
#endif
#ifdef DEMO_HAVE_CUDA
extern const demo_driver_t demo_cuda_driver;
#endif

// The driver named `key`, or NULL when it is not built into the demo.
const demo_driver_t *demo_driver_find(const char *key);

// The emulated drivers next to this program (mock_locate.h); "" if none.
const char *demo_emulated_ze_path(void);
const char *demo_emulated_cuda_path(void);

// ---------------------------------------------------------------------------
// Steps and the messages between producer and consumer

#define DEMO_STEP_NAME_MAX 64
#define DEMO_MAX_STEPS 12
#define DEMO_IPC_DATA_MAX 4096
#define DEMO_MAGIC 0x756d6664u // "umfd"

typedef struct demo_step_t {
    char name[DEMO_STEP_NAME_MAX];
    double ms; // while running: when it began
    int32_t ok;
} demo_step_t;

// The steps of one side, in order; the first failure's reason in `why`.
typedef struct demo_steps_t {
    uint32_t count;
    int32_t failed; // 1 after a step failed
    demo_step_t step[DEMO_MAX_STEPS];
    char why[1024];
} demo_steps_t;

// Starts timing step `name`.
void demo_step_begin(demo_steps_t *steps, const char *name);
// Renames the current step (what it turned out to do).
void demo_step_rename(demo_steps_t *steps, const char *name);
// Ends the current step: `ret` 0 is success; otherwise the step failed and,
// if it is the first failure, `why` is kept. Returns `ret`.
int demo_step_end(demo_steps_t *steps, int ret, const demo_why_t *why);

// Producer -> consumer, followed by ipc_size bytes of IPC data.
typedef struct demo_request_t {
    uint32_t magic;
    uint32_t ipc_size;
    uint64_t buffer_size;
    uint32_t seed_in;  // the pattern the consumer finds
    uint32_t seed_out; // the pattern it writes
} demo_request_t;

// Consumer -> producer.
typedef struct demo_reply_t {
    uint32_t magic;
    demo_steps_t steps;
} demo_reply_t;

// Starts this program again with `args` (NULL-terminated, after argv[0])
// and this process's environment. Returns the child's pid, or -1 (why).
pid_t demo_spawn_self(const char *const *args, demo_why_t *why);

// Waits for the child; describes a status other than exit 0 in why and
// returns -1.
int demo_wait(pid_t pid, demo_why_t *why);

// The run as the consumer: `sock` is its end of the socket. Returns the
// exit status.
int demo_consumer_main(const demo_driver_t *driver, int sock);

// The pattern of `seed` at byte `i`, and checks of a whole buffer: 0, or -1
// (why names the first byte that differs).
unsigned char demo_pattern(size_t i, uint32_t seed);
void demo_pattern_fill(unsigned char *buf, size_t size, uint32_t seed);
int demo_pattern_check(const unsigned char *buf, size_t size, uint32_t seed,
                       demo_why_t *why);

// Milliseconds of a monotonic clock.
double demo_now_ms(void);

#endif // UMF_GPU_DEMO_H

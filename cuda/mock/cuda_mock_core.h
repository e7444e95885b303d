// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The core of the emulated CUDA driver (libcuda.so.1), which every one of
// its files includes: limits, entering an entry point, visible devices,
// results, refusals, contexts and the tables of driver objects; the entry
// points themselves are listed in cuda_mock_entries.h. What a family of
// files offers the others has a header of its own, so that a file's
// includes show what it uses:
//
//   cuda_mock_stream.h      streams and events
//   cuda_mock_queue.h       work in stream order, the driver thread
//   cuda_mock_capture.h     stream capture, for the queue
//   cuda_mock_graph_exec.h  executable graphs, for the queue
//   cuda_mock_graph.h       graphs, for the graph files and capture
//   cuda_mock_copy.h        the copy and fill engine
//   cuda_mock_array.h       CUDA arrays and the device model's limits
//   cuda_mock_memory.h      memory, pools, pinned host memory
//
// The device-memory emulation itself (allocation registry, memory modes, IPC
// primitives, fault engine, control API, leak report) is the core in mock/;
// the files here add what is CUDA's own:
//
//   cuda_mock_driver.c   the driver's description for the core, cuInit,
//                        cuDriverGetVersion, the control API umfCudaMock*
//   cuda_mock_errors.c   the CUresult table, cuGetErrorName/String, and the
//                        mapping of the core's results to CUresult
//   cuda_mock_device.c   devices and their attributes
//   cuda_mock_visible.c  CUDA_VISIBLE_DEVICES, the devices' identities
//   cuda_mock_context.c  primary and created contexts, per-thread stacks
//   cuda_mock_memory.c   allocation, free, queries, pointer attributes
//   cuda_mock_host.c     pinned host memory: flags, device pointers,
//                        registration of user memory
//   cuda_mock_pool.c     the stream-ordered allocator (memory pools)
//   cuda_mock_ipc.c      CUipcMemHandle export, open and close
//   cuda_mock_copy.c     the copy and fill engine, synchronous 1D copies
//   cuda_mock_copy_stream.c  copies on streams and between contexts
//   cuda_mock_copy2d.c   2D copies
//   cuda_mock_copy3d.c   3D copies, copies with CUDA arrays
//   cuda_mock_array.c    CUDA arrays
//   cuda_mock_graph*.c   CUDA graphs (cuda_mock_graph.h)
//   cuda_mock_user_object.c  user objects
//   cuda_mock_capture.c  stream capture
//   cuda_mock_memset.c   fills (cuMemsetD8/16/32, 2D, async)
//   cuda_mock_handles.c  tables of driver objects (streams, events, pools)
//   cuda_mock_stream.c   streams
//   cuda_mock_queue.c    the order of work on streams: queues behind host
//                        functions, the driver thread that runs them
//   cuda_mock_callback.c cuLaunchHostFunc, cuStreamAddCallback
//   cuda_mock_advise.c   memory advice, prefetch, range attributes,
//                        cuPointerSetAttribute
//   cuda_mock_event.c    events
//   cuda_mock_vmm.c      virtual memory management (cuMemCreate, cuMemMap
//                        ...) on the core's model (mock_vmm.h)
//   cuda_mock_copy_batch.c  batches of copies (cuMemcpyBatchAsync)
//   cuda_mock_managed.c  managed memory hints (attach, discard)
//   cuda_mock_profiler.c cuProfilerStart/Stop
//   cuda_mock_proc.c     cuGetProcAddress_v2 (every PFN of cudaTypedefs.h),
//                        cuGetExportTable
//   cuda_mock_legacy.c   the legacy names with 32-bit device pointers
//   cuda_mock_refuse.c   the one refusal of what cannot be emulated, which
//                        the refused families use, one file each:
//                        cuda_mock_module.c (modules, linker),
//                        cuda_mock_library.c, cuda_mock_function.c
//                        (functions, occupancy, launches),
//                        cuda_mock_texture.c, cuda_mock_tensor_map.c,
//                        cuda_mock_graphics.c, cuda_mock_interop.c,
//                        cuda_mock_external.c,
//                        cuda_mock_green.c, cuda_mock_checkpoint.c,
//                        cuda_mock_coredump.c, cuda_mock_multicast.c,
//                        cuda_mock_logs.c, cuda_mock_stream_memop.c,
//                        cuda_mock_memory_refused.c
//
// cuda.h is included with __CUDA_API_VERSION_INTERNAL (set by CMake), as a
// driver sees it: the versioned names (cuMemAlloc_v2 ...), the per-thread
// default stream variants (_ptds) and the legacy prototypes are declared,
// and no cu* name is a macro.

#ifndef UMF_GPU_CUDA_MOCK_CORE_H
#define UMF_GPU_CUDA_MOCK_CORE_H 1

#include <cuda.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuda_mock_entries.h"
#include "mock_core.h"

// Marks an exported entry point; everything else is hidden, and the version
// script (cuda_mock.map) lets only cu* and umfCudaMock* names out.
#define CUDA_MOCK_API __attribute__((visibility("default")))

// Created contexts that may be alive at once, and the depth of a thread's
// context stack.
#define CUDA_MOCK_MAX_CONTEXTS 1024
// Streams, events and memory pools that may be alive at once (their tables
// reserve address space for as many, and use what is touched), and peers
// per context.
#define CUDA_MOCK_MAX_STREAMS (1u << 14)
#define CUDA_MOCK_MAX_EVENTS (1u << 18)
#define CUDA_MOCK_MAX_POOLS (1u << 12)
#define CUDA_MOCK_MAX_ARRAYS (1u << 14)
#define CUDA_MOCK_MAX_GRAPHS (1u << 14)
#define CUDA_MOCK_MAX_GRAPH_NODES (1u << 17)
#define CUDA_MOCK_MAX_GRAPH_EXECS (1u << 14)
#define CUDA_MOCK_MAX_USER_OBJECTS (1u << 14)
#define CUDA_MOCK_MAX_PEERS 8
#define CUDA_MOCK_CTX_STACK_DEPTH 64

// The kinds of driver object the core tracks for this driver.
typedef enum cuda_mock_object_kind_t {
    CUDA_MOCK_OBJECT_CONTEXT = 0,
    CUDA_MOCK_OBJECT_STREAM = 1,
    CUDA_MOCK_OBJECT_EVENT = 2,
    CUDA_MOCK_OBJECT_POOL = 3,
    CUDA_MOCK_OBJECT_HOST_REGISTRATION = 4,
    CUDA_MOCK_OBJECT_ARRAY = 5,
    CUDA_MOCK_OBJECT_GRAPH = 6,
    CUDA_MOCK_OBJECT_GRAPH_NODE = 7,
    CUDA_MOCK_OBJECT_GRAPH_EXEC = 8,
    CUDA_MOCK_OBJECT_USER_OBJECT = 9,
    CUDA_MOCK_OBJECT_GREEN_CTX = 10,
    CUDA_MOCK_OBJECT_KIND_COUNT
} cuda_mock_object_kind_t;

// Bits of the core's user flags of an allocation, beside the flags of the
// call that made it (cuMemHostAlloc's, cuMemAllocManaged's).
#define CUDA_MOCK_POOL_MEMORY 0x80000000u // from a memory pool
#define CUDA_MOCK_HOST_REGISTERED                                              \
    0x40000000u // a registration (cuda_mock_host.c)
// The reservation of a graph allocation node (cuda_mock_graph_mem.c): owner
// is its record; only the graph memory hook frees it.
#define CUDA_MOCK_GRAPH_MEMORY 0x20000000u

// ---------------------------------------------------------------------------
// Entering an entry point (cuda_mock_enter.c; cuInit, in cuda_mock_driver.c,
// sets cuda_mock_initialized)

// True once cuInit succeeded; every entry point but cuInit,
// cuDriverGetVersion, cuGetProcAddress* and cuGetError* needs it.
extern _Atomic bool cuda_mock_initialized;

// Counts the call and applies the fault rules (the core), then checks
// cuInit. Returns CUDA_SUCCESS or the result the call must return.
static inline CUresult cuda_mock_enter(cuda_mock_entry_t entry,
                                       bool need_init) {
    int64_t fault;
    if (__builtin_expect(umf_mock_enter((unsigned)entry, &fault), 0)) {
        return (CUresult)fault;
    }
    if (need_init &&
        __builtin_expect(
            !atomic_load_explicit(&cuda_mock_initialized, memory_order_acquire),
            0)) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    return CUDA_SUCCESS;
}

#define CUDA_MOCK_ENTER_(name, need_init)                                      \
    do {                                                                       \
        CUresult cuda_mock_r_ =                                                \
            cuda_mock_enter(CUDA_MOCK_EP_##name, need_init);                   \
        if (__builtin_expect(cuda_mock_r_ != CUDA_SUCCESS, 0)) {               \
            return cuda_mock_r_;                                               \
        }                                                                      \
    } while (0)

// First statement of an entry point that needs cuInit.
#define CUDA_MOCK_ENTER(name) CUDA_MOCK_ENTER_(name, true)
// First statement of one that works before cuInit.
#define CUDA_MOCK_ENTER_ANYTIME(name) CUDA_MOCK_ENTER_(name, false)

// CUDA_ERROR_INVALID_DEVICE unless `dev` names a device.
#define CUDA_MOCK_CHECK_DEVICE(dev)                                            \
    do {                                                                       \
        if ((dev) < 0 || (unsigned)(dev) >= umf_mock_device_count()) {         \
            return CUDA_ERROR_INVALID_DEVICE;                                  \
        }                                                                      \
    } while (0)

// ---------------------------------------------------------------------------
// Visible devices (cuda_mock_visible.c)

// CUDA_VISIBLE_DEVICES applied to the `configured` devices: the number of
// visible ones (the core's select_devices hook, called once by cuInit).
unsigned cuda_mock_visible_select(unsigned configured);
// The physical device (what UMF_GPU_MOCK_DEVICES counts) of device `dev`,
// and the device of a physical one (-1 when it is not visible).
unsigned cuda_mock_device_physical(CUdevice dev);
int cuda_mock_device_of_physical(unsigned physical);
// The UUID of a physical device, the same in every process: "umf-gpu-cuda"
// and the physical index in the last four bytes.
void cuda_mock_device_uuid(unsigned physical, CUuuid *uuid);

// UMF_GPU_MOCK_CUDA_IPC_REOPEN, read by cuInit: how a second open of one
// handle in one context behaves.
umf_mock_import_mode_t cuda_mock_ipc_reopen_mode(void);

// ---------------------------------------------------------------------------
// Results (cuda_mock_errors.c)

// "CUDA_ERROR_..." for a known code, a fixed placeholder otherwise.
const char *cuda_mock_result_name(CUresult code);

// Every CUresult name and value, for the fault rules.
extern const umf_mock_name_value_t cuda_mock_result_names[];
extern const size_t cuda_mock_result_name_count;

// The CUresult for a result of the core, where the entry point has no more
// specific answer.
CUresult cuda_mock_result_of(umf_mock_status_t status);

// ---------------------------------------------------------------------------
// Refusals (cuda_mock_refuse.c): what the emulated devices cannot do

// Logs "<call>: not supported ...: <why>"; CUDA_ERROR_NOT_SUPPORTED.
CUresult cuda_mock_refuse(const char *call, const char *why);

// A handle of a kind (`kind`: "function", ...) that no call of this driver
// can make: logs why it cannot exist; CUDA_ERROR_INVALID_HANDLE.
CUresult cuda_mock_refuse_handle(const char *call, const char *kind,
                                 uintptr_t handle, const char *why);

// Whether cuFuncSetAttribute and cuKernelSetAttribute may set `attrib`:
// those cuda.h lists as "Supported attributes"; "Attempting to set a value
// on a read-only attribute will result in an error (CUDA_ERROR_INVALID_VALUE)".
static inline bool cuda_mock_func_attribute_settable(CUfunction_attribute a) {
    switch (a) {
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        return true;
    default:
        return false;
    }
}

// cuModuleGetGlobal and cuLibraryGetGlobal/GetManaged: "One of the
// parameters dptr or bytes (not both) can be NULL".
static inline bool cuda_mock_global_outputs_ok(const void *dptr,
                                               const void *bytes) {
    return dptr != NULL || bytes != NULL;
}

// ---------------------------------------------------------------------------
// Contexts (cuda_mock_context.c)

typedef struct CUctx_st cuda_mock_ctx_t;

// Prepares the primary contexts; called once by cuInit.
void cuda_mock_ctx_setup(void);

// The calling thread's current context: CUDA_ERROR_INVALID_CONTEXT when it
// has none, CUDA_ERROR_CONTEXT_IS_DESTROYED when it was destroyed (or is a
// primary context released meanwhile).
CUresult cuda_mock_ctx_current(cuda_mock_ctx_t **out);

// The device of a context.
int cuda_mock_ctx_device(const cuda_mock_ctx_t *ctx);

// `ctx` if it is a live context, else for NULL the current one; as
// cuda_mock_ctx_live and cuda_mock_ctx_current answer (logged with `call`).
CUresult cuda_mock_ctx_or_current(CUcontext ctx, const char *call,
                                  cuda_mock_ctx_t **out);

// Per-context teardown hooks. A file that keeps objects of a context (its
// streams, events, memory ...) adds one hook, where it defines it:
//
//     static void my_ctx_teardown(const cuda_mock_ctx_t *ctx) { ... }
//     CUDA_MOCK_CTX_TEARDOWN(CUDA_MOCK_TEARDOWN_STREAMS, my_ctx_teardown);
//
// When a context is destroyed (or its primary context's last reference
// goes), cuda_mock_context.c runs every hook, lowest order first, under its
// lock, after the context reads as destroyed. The hooks are a linker set
// (one ELF section, walked from __start_ to __stop_): nothing runs at load
// time, and no file but this header knows the others' hooks.
typedef struct cuda_mock_teardown_t {
    int order;
    void (*fn)(const cuda_mock_ctx_t *ctx);
} cuda_mock_teardown_t;

// The orders: what a hook of a higher order frees, a lower one may still
// need (work queued on streams runs on memory, so it goes first).
enum {
    CUDA_MOCK_TEARDOWN_QUEUES = 10,
    CUDA_MOCK_TEARDOWN_STREAMS = 20,
    CUDA_MOCK_TEARDOWN_EVENTS = 21,
    CUDA_MOCK_TEARDOWN_HOST = 30,
    CUDA_MOCK_TEARDOWN_ARRAYS = 40,
    CUDA_MOCK_TEARDOWN_RANGES = 45,
    CUDA_MOCK_TEARDOWN_MEMORY = 50,
};

#define CUDA_MOCK_CTX_TEARDOWN(order_, fn_)                                    \
    static const cuda_mock_teardown_t cuda_mock_teardown_##fn_                 \
        __attribute__((section("cuda_mock_teardown"), used,                    \
                       aligned(sizeof(void *)))) = {(order_), (fn_)}

// What must finish before a context goes, outside the context lock (work
// queued on its streams, whose host functions may call the driver): hooks
// run before the teardown hooks, in a linker set of their own, with no
// order among them.
//
//     CUDA_MOCK_CTX_QUIESCE(my_ctx_quiesce);
typedef struct cuda_mock_quiesce_t {
    void (*fn)(const cuda_mock_ctx_t *ctx);
} cuda_mock_quiesce_t;

#define CUDA_MOCK_CTX_QUIESCE(fn_)                                             \
    static const cuda_mock_quiesce_t cuda_mock_quiesce_##fn_                   \
        __attribute__((section("cuda_mock_quiesce"), used,                     \
                       aligned(sizeof(void *)))) = {(fn_)}

// The live context `handle` names (any thread's): CUDA_ERROR_INVALID_CONTEXT
// for anything else, logged with `call`.
CUresult cuda_mock_ctx_live(CUcontext handle, const char *call,
                            cuda_mock_ctx_t **out);

// A reference to a context that tells later whether it is still the same
// live context (a destroyed one's slot may be reused).
typedef struct cuda_mock_ctx_ref_t {
    cuda_mock_ctx_t *ctx;
    uint32_t gen;
} cuda_mock_ctx_ref_t;
cuda_mock_ctx_ref_t cuda_mock_ctx_ref(cuda_mock_ctx_t *ctx);
bool cuda_mock_ctx_ref_alive(cuda_mock_ctx_ref_t ref);

// Green contexts' contexts (cuda_mock_green.c keeps the green handles).
// Creating one retains the primary context of `dev` and does not make it
// current; `green` is the handle cuda_mock_ctx_green answers for it.
// Destroying one tears it down (its objects' hooks run) and releases the
// primary context: CUDA_ERROR_CONTEXT_IS_DESTROYED when it was destroyed.
CUresult cuda_mock_ctx_green_create(CUdevice dev, CUgreenCtx green,
                                    const char *call, cuda_mock_ctx_t **out);
CUresult cuda_mock_ctx_green_destroy(cuda_mock_ctx_ref_t ref, const char *call);
// The green handle of a green context's context; NULL for any other.
CUgreenCtx cuda_mock_ctx_green(const cuda_mock_ctx_t *ctx);
// The context whose memory `ctx` shares: a green context's primary
// context, else `ctx` itself.
cuda_mock_ctx_t *cuda_mock_ctx_base(const cuda_mock_ctx_t *ctx);
// Whether `ref` is alive and is `ctx` or, for a primary context, one of its
// green contexts (what cuCtxSynchronize of a primary context waits for).
bool cuda_mock_ctx_ref_within(cuda_mock_ctx_ref_t ref,
                              const cuda_mock_ctx_t *ctx);

// ---------------------------------------------------------------------------
// Tables of driver objects (cuda_mock_handles.c)
//
// A table is one heap block, made at first use and never freed, of
// fixed-size slots; a handle is valid when it points at a live slot of
// its table, which is decided without touching memory that is not the
// table's. Every object starts with its slot header; a live object is in
// the core's object set (the leak report) under the table's kind.

typedef struct cuda_mock_slot_t {
    _Atomic uint32_t state; // free or live
    _Atomic uint32_t gen;   // bumped by each allocation of the slot
} cuda_mock_slot_t;

typedef struct cuda_mock_table_t {
    const char *what; // "stream", for log lines
    size_t slot_size;
    uint32_t capacity;
    unsigned object_kind;
    _Atomic(char *) base;
    _Atomic uint32_t high; // slots ever used: the bound of a walk
    uint32_t cursor;       // the next slot to try (under lock)
    pthread_mutex_t lock;
} cuda_mock_table_t;

#define CUDA_MOCK_TABLE(what_, type_, capacity_, kind_)                        \
    {                                                                          \
        .what = (what_), .slot_size = sizeof(type_), .capacity = (capacity_),  \
        .object_kind = (kind_), .lock = PTHREAD_MUTEX_INITIALIZER,             \
    }

// A live slot, zeroed past its header; CUDA_ERROR_OUT_OF_MEMORY when every
// slot is alive (logged).
CUresult cuda_mock_table_alloc(cuda_mock_table_t *t, void **out);
// The live slot `handle` names, or NULL.
void *cuda_mock_table_get(cuda_mock_table_t *t, const void *handle);
// Whether `handle` points at a slot of `t`, alive or not (a destroyed
// object's handle, told from one the table never made).
bool cuda_mock_table_holds(cuda_mock_table_t *t, const void *handle);
// Ends a live slot's life; false when it was not live (of two racing
// frees, one wins).
bool cuda_mock_table_free(cuda_mock_table_t *t, void *slot);
// Calls fn for every live slot.
void cuda_mock_table_foreach(cuda_mock_table_t *t,
                             void (*fn)(void *slot, void *arg), void *arg);

#endif // UMF_GPU_CUDA_MOCK_CORE_H

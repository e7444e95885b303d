// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Contexts: one primary context per device (retained and released by
// reference count) and created contexts, plus each thread's stack of current
// contexts, as in the CUDA driver.
//
// Context objects live in two static tables and are never freed, so that a
// handle is always safe to look at: a CUcontext is valid when it points at
// an element of a table that is alive. A created context's slot gets a new
// generation when it is destroyed; a thread's stack remembers the generation
// it pushed, so a context destroyed by another thread reads as destroyed
// (CUDA_ERROR_CONTEXT_IS_DESTROYED) there, even after the slot is reused.
// A primary context keeps its handle for the life of the process; it is
// usable while retained.
//
// A green context (cuGreenCtxCreate, cuda_mock_green.c) takes a created
// context's slot: it retains its device's primary context for its life and
// shares that context's memory (allocations made while it is current belong
// to the primary context, as on a real driver, where the converted context
// "is a normal primary context but with the resources of the green
// context"); its streams, events and other objects are its own.
//
// Creating, destroying, retaining and releasing take one mutex (they are
// rare); finding the calling thread's current context, which every memory
// call does, reads thread-local storage and one atomic.

#include "cuda_mock_core.h"
#include "cuda_mock_queue.h"

#include <limits.h>
#include <pthread.h>
#include <string.h>

#include "mock_log.h"
#include "util_thread.h"

#define CTX_FREE 0u
#define CTX_LIVE 1u

struct CUctx_st {
    _Atomic uint32_t state; // CTX_FREE or CTX_LIVE
    _Atomic uint32_t gen;   // created contexts: bumped by each destroy
    _Atomic int device;
    _Atomic unsigned flags;
    // Set at bring-up: an id unique in the process (cuCtxGetId), and the
    // preferences of cuCtxSetCacheConfig and cuCtxSetSharedMemConfig.
    _Atomic unsigned long long id;
    _Atomic int cache_config;
    _Atomic int shmem_config;
    int retains; // primary contexts: the reference count (under `lock`)
    bool primary;
    // cuCtxSetLimit's values; the defaults at bring-up.
    _Atomic size_t limits[CU_LIMIT_MAX];
    // Contexts whose memory this one may access (cuCtxEnablePeerAccess;
    // under `lock`): empty slots have a NULL ctx.
    struct ctx_ref_t {
        struct CUctx_st *ctx;
        uint32_t gen;
    } peers[CUDA_MOCK_MAX_PEERS];
    // A green context's primary context and green handle; NULL for others.
    // Set before the context goes live, kept after its teardown (its
    // objects' hooks read it), reset when the slot is reused.
    _Atomic(struct CUctx_st *) green_of;
    _Atomic(CUgreenCtx) green;
};

// A thread's reference to a context: the generation tells whether the
// context is still the one that was made current.
typedef struct ctx_ref_t ctx_ref_t;

static struct CUctx_st primary_ctx[UMF_MOCK_MAX_DEVICES];
static struct CUctx_st user_ctx[CUDA_MOCK_MAX_CONTEXTS];
static unsigned user_cursor; // next slot to try (under `lock`)
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

// The calling thread's context stack: its top (the current context) in a
// small static-TLS slot that every memory call reads cheaply (16 of the 64
// bytes this library may keep there, utils/util_thread.h), the contexts
// below it in per-thread state made at the thread's first push onto a
// current context, which only push and pop touch.
static _Thread_local ctx_ref_t tls_top UMF_TLS_HOT;

typedef struct ctx_stack_t {
    unsigned depth;
    ctx_ref_t below[CUDA_MOCK_CTX_STACK_DEPTH - 1];
} ctx_stack_t;

static umf_thread_state_t stacks =
    UMF_THREAD_STATE_INIT(sizeof(ctx_stack_t), NULL);

// If the driver is unloaded, exiting threads must not call back into it.
__attribute__((destructor)) static void ctx_stacks_unload(void) {
    umf_thread_state_fini(&stacks);
}

static ctx_ref_t ref_of(struct CUctx_st *ctx) {
    ctx_ref_t r = {ctx, atomic_load_explicit(&ctx->gen, memory_order_acquire)};
    return r;
}

static bool ref_alive(ctx_ref_t r) {
    return atomic_load_explicit(&r.ctx->state, memory_order_acquire) ==
               CTX_LIVE &&
           atomic_load_explicit(&r.ctx->gen, memory_order_acquire) == r.gen;
}

// The context a handle names, if it is one of the tables' elements (alive
// or not); NULL for anything else.
cuda_mock_ctx_ref_t cuda_mock_ctx_ref(cuda_mock_ctx_t *ctx) {
    ctx_ref_t r = ref_of(ctx);
    cuda_mock_ctx_ref_t out = {r.ctx, r.gen};
    return out;
}

bool cuda_mock_ctx_ref_alive(cuda_mock_ctx_ref_t ref) {
    ctx_ref_t r = {ref.ctx, ref.gen};
    return ref.ctx != NULL && ref_alive(r);
}

static struct CUctx_st *ctx_of_handle(CUcontext handle) {
    uintptr_t h = (uintptr_t)handle;
    uintptr_t p0 = (uintptr_t)&primary_ctx[0];
    uintptr_t u0 = (uintptr_t)&user_ctx[0];
    size_t sz = sizeof(struct CUctx_st);
    if (h >= p0 && h < p0 + sizeof(primary_ctx) && (h - p0) % sz == 0) {
        return &primary_ctx[(h - p0) / sz];
    }
    if (h >= u0 && h < u0 + sizeof(user_ctx) && (h - u0) % sz == 0) {
        return &user_ctx[(h - u0) / sz];
    }
    return NULL;
}

CUresult cuda_mock_ctx_live(CUcontext handle, const char *call,
                            cuda_mock_ctx_t **out) {
    struct CUctx_st *ctx = ctx_of_handle(handle);
    if (ctx == NULL) {
        UMF_MOCK_LOG_ERROR("%s: %p is not a context of this driver", call,
                           (void *)handle);
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    if (atomic_load_explicit(&ctx->state, memory_order_acquire) != CTX_LIVE) {
        UMF_MOCK_LOG_ERROR(
            "%s: context %p was destroyed%s", call, (void *)handle,
            ctx->primary ? " (primary context not retained)" : "");
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    *out = ctx;
    return CUDA_SUCCESS;
}

CUresult cuda_mock_ctx_current(cuda_mock_ctx_t **out) {
    ctx_ref_t top = tls_top;
    if (top.ctx == NULL) {
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    if (!ref_alive(top)) {
        return CUDA_ERROR_CONTEXT_IS_DESTROYED;
    }
    *out = top.ctx;
    return CUDA_SUCCESS;
}

int cuda_mock_ctx_device(const cuda_mock_ctx_t *ctx) {
    return atomic_load_explicit(&ctx->device, memory_order_relaxed);
}

static CUresult push(ctx_ref_t r) {
    if (tls_top.ctx != NULL) {
        ctx_stack_t *stack = umf_thread_state_get(&stacks);
        if (stack == NULL) {
            UMF_MOCK_LOG_ERROR("out of host memory for this thread's context "
                               "stack");
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        if (stack->depth == CUDA_MOCK_CTX_STACK_DEPTH - 1) {
            UMF_MOCK_LOG_ERROR("the context stack of this thread is full (%d "
                               "contexts)",
                               CUDA_MOCK_CTX_STACK_DEPTH);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        stack->below[stack->depth++] = tls_top;
    }
    tls_top = r;
    return CUDA_SUCCESS;
}

static ctx_ref_t pop(void) {
    ctx_ref_t old = tls_top;
    ctx_stack_t *stack = umf_thread_state_peek(&stacks);
    if (stack != NULL && stack->depth > 0) {
        tls_top = stack->below[--stack->depth];
    } else {
        tls_top.ctx = NULL;
        tls_top.gen = 0;
    }
    return old;
}

// The limits' defaults: those of an H100 (cuda_mock_device.c's model).
static const size_t limit_defaults[CU_LIMIT_MAX] = {
    [CU_LIMIT_STACK_SIZE] = 1024,
    [CU_LIMIT_PRINTF_FIFO_SIZE] = 1u << 20,
    [CU_LIMIT_MALLOC_HEAP_SIZE] = 8u << 20,
    [CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT] = 2048,
    [CU_LIMIT_MAX_L2_FETCH_GRANULARITY] = 64,
    [CU_LIMIT_PERSISTING_L2_CACHE_SIZE] = 0,
};

// No context keeps `ctx` as a peer, nor it any (under `lock`); a primary
// context keeps its handle, so its references would not turn stale.
static void forget_peer(const struct CUctx_st *ctx) {
    struct CUctx_st *tables[2] = {primary_ctx, user_ctx};
    size_t sizes[2] = {UMF_MOCK_MAX_DEVICES, CUDA_MOCK_MAX_CONTEXTS};
    for (int t = 0; t < 2; t++) {
        for (size_t i = 0; i < sizes[t]; i++) {
            struct CUctx_st *c = &tables[t][i];
            for (int k = 0; k < CUDA_MOCK_MAX_PEERS; k++) {
                if (c == ctx || c->peers[k].ctx == ctx) {
                    c->peers[k].ctx = NULL;
                }
            }
        }
    }
}

// Starts a context's life (under `lock`): the core tracks it for the leak
// report and the control API.
static CUresult bring_up(struct CUctx_st *ctx, const char *call) {
    if (!umf_mock_object_add(CUDA_MOCK_OBJECT_CONTEXT, ctx)) {
        UMF_MOCK_LOG_ERROR("%s: out of host memory", call);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    for (int i = 0; i < CU_LIMIT_MAX; i++) {
        atomic_store_explicit(&ctx->limits[i], limit_defaults[i],
                              memory_order_relaxed);
    }
    memset(ctx->peers, 0, sizeof(ctx->peers));
    static _Atomic unsigned long long next_id = 1;
    atomic_store_explicit(
        &ctx->id, atomic_fetch_add_explicit(&next_id, 1, memory_order_relaxed),
        memory_order_relaxed);
    atomic_store_explicit(&ctx->cache_config, CU_FUNC_CACHE_PREFER_NONE,
                          memory_order_relaxed);
    atomic_store_explicit(&ctx->shmem_config,
                          CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE,
                          memory_order_relaxed);
    atomic_store_explicit(&ctx->state, CTX_LIVE, memory_order_release);
    return CUDA_SUCCESS;
}

// The quiesce hooks of every file (CUDA_MOCK_CTX_QUIESCE), in their ELF
// section.
extern const cuda_mock_quiesce_t __start_cuda_mock_quiesce[]
    __attribute__((visibility("hidden")));
extern const cuda_mock_quiesce_t __stop_cuda_mock_quiesce[]
    __attribute__((visibility("hidden")));

// Before a context goes, outside `lock`: what must finish first.
static void quiesce(const struct CUctx_st *ctx) {
    for (const cuda_mock_quiesce_t *h = __start_cuda_mock_quiesce;
         h < __stop_cuda_mock_quiesce; h++) {
        h->fn(ctx);
    }
}

// The hooks of every file (CUDA_MOCK_CTX_TEARDOWN), in their ELF section.
extern const cuda_mock_teardown_t __start_cuda_mock_teardown[]
    __attribute__((visibility("hidden")));
extern const cuda_mock_teardown_t __stop_cuda_mock_teardown[]
    __attribute__((visibility("hidden")));

// Runs every teardown hook for `ctx`, lowest order first (a handful of
// hooks: each pass runs those of the next order up).
static void run_teardown_hooks(const struct CUctx_st *ctx) {
    long long floor = LLONG_MIN; // the orders below it have run
    for (;;) {
        bool found = false;
        int next = 0;
        for (const cuda_mock_teardown_t *h = __start_cuda_mock_teardown;
             h < __stop_cuda_mock_teardown; h++) {
            if (h->order >= floor && (!found || h->order < next)) {
                next = h->order;
                found = true;
            }
        }
        if (!found) {
            return;
        }
        for (const cuda_mock_teardown_t *h = __start_cuda_mock_teardown;
             h < __stop_cuda_mock_teardown; h++) {
            if (h->order == next) {
                h->fn(ctx);
            }
        }
        floor = (long long)next + 1;
    }
}

// Ends a context's life (under `lock`): its memory goes with it, as in the
// driver, which frees a context's allocations and mappings when the context
// is destroyed or its primary context reset. A created context's slot gets
// a new generation; a primary context keeps its handle, which threads may
// still hold as current and use again once it is retained again.
static void teardown(struct CUctx_st *ctx) {
    if (!ctx->primary) {
        atomic_fetch_add_explicit(&ctx->gen, 1, memory_order_release);
    }
    atomic_store_explicit(&ctx->state, CTX_FREE, memory_order_release);
    (void)umf_mock_object_remove(CUDA_MOCK_OBJECT_CONTEXT, ctx);
    forget_peer(ctx);
    run_teardown_hooks(ctx);
}

// Creation flags: those of CU_CTX_FLAGS_MASK, at most one scheduling mode.
static CUresult check_ctx_flags(unsigned flags, const char *call) {
    unsigned sched = flags & CU_CTX_SCHED_MASK;
    if ((flags & ~(unsigned)CU_CTX_FLAGS_MASK) != 0 ||
        (sched != CU_CTX_SCHED_AUTO && sched != CU_CTX_SCHED_SPIN &&
         sched != CU_CTX_SCHED_YIELD && sched != CU_CTX_SCHED_BLOCKING_SYNC)) {
        UMF_MOCK_LOG_ERROR("%s: invalid flags 0x%x", call, flags);
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

// ---------------------------------------------------------------------------
// Primary contexts
//
// A primary context counts its retains and is active while it is brought up.
// The last release tears it down; so does cuDevicePrimaryCtxReset, which
// leaves the count alone ("resetting the primary context does not release
// it"), so that the releases its users still owe succeed. The next retain
// brings it up anew, with the flags of cuDevicePrimaryCtxSetFlags, which
// outlive both.

void cuda_mock_ctx_setup(void) {
    for (size_t i = 0; i < UMF_MOCK_MAX_DEVICES; i++) {
        primary_ctx[i].primary = true;
        atomic_store_explicit(&primary_ctx[i].device, (int)i,
                              memory_order_relaxed);
    }
}

static bool primary_active(const struct CUctx_st *ctx) {
    return atomic_load_explicit(&ctx->state, memory_order_relaxed) == CTX_LIVE;
}

CUDA_MOCK_API CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev) {
    CUDA_MOCK_ENTER(cuDevicePrimaryCtxRetain);
    if (pctx == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(dev);
    struct CUctx_st *ctx = &primary_ctx[dev];
    CUresult res = CUDA_SUCCESS;
    pthread_mutex_lock(&lock);
    if (!primary_active(ctx)) {
        res = bring_up(ctx, "cuDevicePrimaryCtxRetain");
    }
    if (res == CUDA_SUCCESS) {
        ctx->retains++;
    }
    pthread_mutex_unlock(&lock);
    if (res == CUDA_SUCCESS) {
        *pctx = ctx;
    }
    return res;
}

static CUresult primary_release(CUdevice dev, const char *call) {
    CUDA_MOCK_CHECK_DEVICE(dev);
    struct CUctx_st *ctx = &primary_ctx[dev];
    CUresult res = CUDA_SUCCESS;
    pthread_mutex_lock(&lock);
    if (ctx->retains == 1) {
        // The last release, unless another thread retains meanwhile: the
        // context's queued work first, outside the lock.
        pthread_mutex_unlock(&lock);
        quiesce(ctx);
        pthread_mutex_lock(&lock);
    }
    if (ctx->retains == 0) {
        UMF_MOCK_LOG_ERROR("%s(dev=%d): the primary context is not retained",
                           call, dev);
        res = CUDA_ERROR_INVALID_CONTEXT;
    } else if (--ctx->retains == 0 && primary_active(ctx)) {
        teardown(ctx);
    }
    pthread_mutex_unlock(&lock);
    return res;
}

CUDA_MOCK_API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev) {
    CUDA_MOCK_ENTER(cuDevicePrimaryCtxRelease_v2);
    return primary_release(dev, "cuDevicePrimaryCtxRelease_v2");
}

// CUDA 7's name of the same call (cudaTypedefs.h: the same arguments).
CUDA_MOCK_API CUresult cuDevicePrimaryCtxRelease(CUdevice dev) {
    CUDA_MOCK_ENTER(cuDevicePrimaryCtxRelease);
    return primary_release(dev, "cuDevicePrimaryCtxRelease");
}

// Everything the primary context made goes with it (memory, streams,
// events, registrations, peer access), in every thread at once; threads
// that have it current see CUDA_ERROR_CONTEXT_IS_DESTROYED until it is
// retained again.
static CUresult primary_reset(CUdevice dev) {
    CUDA_MOCK_CHECK_DEVICE(dev);
    struct CUctx_st *ctx = &primary_ctx[dev];
    pthread_mutex_lock(&lock);
    if (primary_active(ctx)) {
        teardown(ctx);
    }
    pthread_mutex_unlock(&lock);
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev) {
    CUDA_MOCK_ENTER(cuDevicePrimaryCtxReset_v2);
    return primary_reset(dev);
}

CUDA_MOCK_API CUresult cuDevicePrimaryCtxReset(CUdevice dev) {
    CUDA_MOCK_ENTER(cuDevicePrimaryCtxReset);
    return primary_reset(dev);
}

// The flags of cuCtxCreate (cuda.h lists the same ones for both), applied
// at once to an active primary context (cuCtxGetFlags sees them) and kept
// for its next bring-up. CUDA 7's variant refuses while the context is
// active, with CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE, as drivers before CUDA 11
// did: runtimes that resolve the old name check the state first.
static CUresult primary_set_flags(CUdevice dev, unsigned flags,
                                  bool refuse_active, const char *call) {
    CUDA_MOCK_CHECK_DEVICE(dev);
    CUresult res = check_ctx_flags(flags, call);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    struct CUctx_st *ctx = &primary_ctx[dev];
    pthread_mutex_lock(&lock);
    if (refuse_active && primary_active(ctx)) {
        UMF_MOCK_LOG_ERROR("%s(dev=%d): the primary context is active (call "
                           "cuDevicePrimaryCtxSetFlags_v2 to change it)",
                           call, dev);
        res = CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE;
    } else {
        atomic_store_explicit(&ctx->flags, flags, memory_order_relaxed);
    }
    pthread_mutex_unlock(&lock);
    return res;
}

CUDA_MOCK_API CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev,
                                                     unsigned int flags) {
    CUDA_MOCK_ENTER(cuDevicePrimaryCtxSetFlags_v2);
    return primary_set_flags(dev, flags, false,
                             "cuDevicePrimaryCtxSetFlags_v2");
}

CUDA_MOCK_API CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev,
                                                  unsigned int flags) {
    CUDA_MOCK_ENTER(cuDevicePrimaryCtxSetFlags);
    return primary_set_flags(dev, flags, true, "cuDevicePrimaryCtxSetFlags");
}

CUDA_MOCK_API CUresult cuDevicePrimaryCtxGetState(CUdevice dev,
                                                  unsigned int *flags,
                                                  int *active) {
    CUDA_MOCK_ENTER(cuDevicePrimaryCtxGetState);
    if (flags == NULL || active == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(dev);
    struct CUctx_st *ctx = &primary_ctx[dev];
    pthread_mutex_lock(&lock);
    *flags = atomic_load_explicit(&ctx->flags, memory_order_relaxed);
    *active = primary_active(ctx);
    pthread_mutex_unlock(&lock);
    return CUDA_SUCCESS;
}

// ---------------------------------------------------------------------------
// Created contexts

static CUresult check_affinity(const CUexecAffinityParam *params, int count,
                               const char *call) {
    if (count < 0 || (count > 0 && params == NULL)) {
        UMF_MOCK_LOG_ERROR("%s: %d execution affinity parameters at %p", call,
                           count, (const void *)params);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (count > 0) {
        // cuDeviceGetExecAffinitySupport would say no for every type.
        UMF_MOCK_LOG_ERROR("%s: execution affinity is not supported by the "
                           "emulated devices",
                           call);
        return CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY;
    }
    return CUDA_SUCCESS;
}

// A free slot for a created or green context, of `dev` with `flags`
// (under `lock`); NULL when all are in use.
static struct CUctx_st *claim_slot(CUdevice dev, unsigned flags,
                                   const char *call) {
    // Round robin, so that a destroyed context's slot is reused late.
    for (unsigned i = 0; i < CUDA_MOCK_MAX_CONTEXTS; i++) {
        struct CUctx_st *c =
            &user_ctx[(user_cursor + i) % CUDA_MOCK_MAX_CONTEXTS];
        if (atomic_load_explicit(&c->state, memory_order_relaxed) == CTX_FREE) {
            user_cursor = (user_cursor + i + 1) % CUDA_MOCK_MAX_CONTEXTS;
            atomic_store_explicit(&c->device, dev, memory_order_relaxed);
            atomic_store_explicit(&c->flags, flags, memory_order_relaxed);
            atomic_store_explicit(&c->green_of, NULL, memory_order_relaxed);
            atomic_store_explicit(&c->green, NULL, memory_order_relaxed);
            return c;
        }
    }
    UMF_MOCK_LOG_ERROR("%s: all %d contexts are in use", call,
                       CUDA_MOCK_MAX_CONTEXTS);
    return NULL;
}

static CUresult ctx_create(CUcontext *pctx, unsigned flags, CUdevice dev,
                           const char *call) {
    if (pctx == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(dev);
    CUresult res = check_ctx_flags(flags, call);
    if (res != CUDA_SUCCESS) {
        return res;
    }

    pthread_mutex_lock(&lock);
    struct CUctx_st *ctx = claim_slot(dev, flags, call);
    if (ctx == NULL) {
        pthread_mutex_unlock(&lock);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    res = bring_up(ctx, call);
    if (res == CUDA_SUCCESS) {
        res = push(ref_of(ctx));
        if (res != CUDA_SUCCESS) {
            teardown(ctx);
        }
    }
    pthread_mutex_unlock(&lock);
    if (res == CUDA_SUCCESS) {
        *pctx = ctx;
    }
    return res;
}

CUDA_MOCK_API CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags,
                                      CUdevice dev) {
    CUDA_MOCK_ENTER(cuCtxCreate_v2);
    return ctx_create(pctx, flags, dev, "cuCtxCreate_v2");
}

// CUDA 2's name of cuCtxCreate_v2 (the same arguments).
CUDA_MOCK_API CUresult cuCtxCreate(CUcontext *pctx, unsigned int flags,
                                   CUdevice dev) {
    CUDA_MOCK_ENTER(cuCtxCreate);
    return ctx_create(pctx, flags, dev, "cuCtxCreate");
}

CUDA_MOCK_API CUresult cuCtxCreate_v3(CUcontext *pctx,
                                      CUexecAffinityParam *paramsArray,
                                      int numParams, unsigned int flags,
                                      CUdevice dev) {
    CUDA_MOCK_ENTER(cuCtxCreate_v3);
    CUresult res = check_affinity(paramsArray, numParams, "cuCtxCreate_v3");
    if (res != CUDA_SUCCESS) {
        return res;
    }
    return ctx_create(pctx, flags, dev, "cuCtxCreate_v3");
}

CUDA_MOCK_API CUresult cuCtxCreate_v4(CUcontext *pctx,
                                      CUctxCreateParams *ctxCreateParams,
                                      unsigned int flags, CUdevice dev) {
    CUDA_MOCK_ENTER(cuCtxCreate_v4);
    if (ctxCreateParams != NULL) {
        if (ctxCreateParams->cigParams != NULL) {
            UMF_MOCK_LOG_ERROR("cuCtxCreate_v4: CUDA in graphics (CIG) "
                               "contexts are not supported by the emulated "
                               "devices");
            return CUDA_ERROR_NOT_SUPPORTED;
        }
        CUresult res = check_affinity(ctxCreateParams->execAffinityParams,
                                      ctxCreateParams->numExecAffinityParams,
                                      "cuCtxCreate_v4");
        if (res != CUDA_SUCCESS) {
            return res;
        }
    }
    return ctx_create(pctx, flags, dev, "cuCtxCreate_v4");
}

// Destroys the created or green context `c` of generation `gen`, unless
// another thread did (false):
// its queued work first, outside the lock (host functions may run); popped
// from the calling thread's stack when it is the current context there.
static bool destroy_live(struct CUctx_st *c, uint32_t gen) {
    quiesce(c);
    pthread_mutex_lock(&lock);
    bool live =
        atomic_load_explicit(&c->state, memory_order_relaxed) == CTX_LIVE &&
        atomic_load_explicit(&c->gen, memory_order_relaxed) == gen;
    if (live) {
        ctx_ref_t top = tls_top;
        if (top.ctx == c &&
            top.gen == atomic_load_explicit(&c->gen, memory_order_relaxed)) {
            (void)pop();
        }
        teardown(c);
    }
    pthread_mutex_unlock(&lock);
    return live;
}

static CUresult ctx_destroy(CUcontext ctx, const char *call) {
    if (ctx == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    struct CUctx_st *c;
    CUresult res = cuda_mock_ctx_live(ctx, call, &c);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (c->primary) {
        UMF_MOCK_LOG_ERROR("%s(%p): a primary context is released with "
                           "cuDevicePrimaryCtxRelease, not destroyed",
                           call, (void *)ctx);
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    if (cuda_mock_ctx_green(c) != NULL) {
        UMF_MOCK_LOG_ERROR("%s(%p): the context of a green context goes with "
                           "cuGreenCtxDestroy, not cuCtxDestroy",
                           call, (void *)ctx);
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    // Another thread may have destroyed it meanwhile.
    return destroy_live(c, ref_of(c).gen) ? CUDA_SUCCESS
                                          : CUDA_ERROR_INVALID_CONTEXT;
}

CUDA_MOCK_API CUresult cuCtxDestroy_v2(CUcontext ctx) {
    CUDA_MOCK_ENTER(cuCtxDestroy_v2);
    return ctx_destroy(ctx, "cuCtxDestroy_v2");
}

// CUDA 2's name (the same arguments), as loaders that resolve the old names
// call it.
CUDA_MOCK_API CUresult cuCtxDestroy(CUcontext ctx) {
    CUDA_MOCK_ENTER(cuCtxDestroy);
    return ctx_destroy(ctx, "cuCtxDestroy");
}

// ---------------------------------------------------------------------------
// Green contexts' contexts (the API is cuda_mock_green.c's)

CUgreenCtx cuda_mock_ctx_green(const cuda_mock_ctx_t *ctx) {
    return atomic_load_explicit(&ctx->green, memory_order_relaxed);
}

cuda_mock_ctx_t *cuda_mock_ctx_base(const cuda_mock_ctx_t *ctx) {
    struct CUctx_st *p =
        atomic_load_explicit(&ctx->green_of, memory_order_relaxed);
    return p != NULL ? p : (cuda_mock_ctx_t *)ctx;
}

bool cuda_mock_ctx_ref_within(cuda_mock_ctx_ref_t ref,
                              const cuda_mock_ctx_t *ctx) {
    if (!cuda_mock_ctx_ref_alive(ref)) {
        return false;
    }
    return ref.ctx == ctx ||
           (ctx->primary && atomic_load_explicit(&ref.ctx->green_of,
                                                 memory_order_relaxed) == ctx);
}

CUresult cuda_mock_ctx_green_create(CUdevice dev, CUgreenCtx green,
                                    const char *call, cuda_mock_ctx_t **out) {
    struct CUctx_st *primary = &primary_ctx[dev];
    CUresult res = CUDA_SUCCESS;
    pthread_mutex_lock(&lock);
    // "This API will retain the primary context on device dev."
    if (!primary_active(primary)) {
        res = bring_up(primary, call);
    }
    if (res != CUDA_SUCCESS) {
        pthread_mutex_unlock(&lock);
        return res;
    }
    primary->retains++;
    struct CUctx_st *ctx = claim_slot(
        dev, atomic_load_explicit(&primary->flags, memory_order_relaxed), call);
    res = ctx != NULL ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
    if (res == CUDA_SUCCESS) {
        atomic_store_explicit(&ctx->green_of, primary, memory_order_relaxed);
        atomic_store_explicit(&ctx->green, green, memory_order_relaxed);
        res = bring_up(ctx, call);
    }
    if (res != CUDA_SUCCESS && --primary->retains == 0) {
        teardown(primary);
    }
    pthread_mutex_unlock(&lock);
    if (res == CUDA_SUCCESS) {
        *out = ctx;
    }
    return res;
}

CUresult cuda_mock_ctx_green_destroy(cuda_mock_ctx_ref_t ref,
                                     const char *call) {
    struct CUctx_st *ctx = ref.ctx;
    if (!destroy_live(ctx, ref.gen)) {
        UMF_MOCK_LOG_ERROR("%s: the green context was destroyed", call);
        return CUDA_ERROR_CONTEXT_IS_DESTROYED;
    }
    // "releasing the primary context of the device".
    return primary_release(cuda_mock_ctx_device(ctx), call);
}

// ---------------------------------------------------------------------------
// The current context

CUDA_MOCK_API CUresult cuCtxGetCurrent(CUcontext *pctx) {
    CUDA_MOCK_ENTER(cuCtxGetCurrent);
    if (pctx == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    *pctx = tls_top.ctx;
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuCtxSetCurrent(CUcontext ctx) {
    CUDA_MOCK_ENTER(cuCtxSetCurrent);
    if (ctx == NULL) {
        if (tls_top.ctx != NULL) {
            (void)pop();
        }
        return CUDA_SUCCESS;
    }
    struct CUctx_st *c;
    CUresult res = cuda_mock_ctx_live(ctx, "cuCtxSetCurrent", &c);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    tls_top = ref_of(c);
    return CUDA_SUCCESS;
}

static CUresult ctx_push(CUcontext ctx, const char *call) {
    if (ctx == NULL) {
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    struct CUctx_st *c;
    CUresult res = cuda_mock_ctx_live(ctx, call, &c);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    return push(ref_of(c));
}

static CUresult ctx_pop(CUcontext *pctx) {
    if (tls_top.ctx == NULL) {
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    ctx_ref_t old = pop();
    if (pctx != NULL) {
        *pctx = old.ctx;
    }
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuCtxPushCurrent_v2(CUcontext ctx) {
    CUDA_MOCK_ENTER(cuCtxPushCurrent_v2);
    return ctx_push(ctx, "cuCtxPushCurrent_v2");
}

CUDA_MOCK_API CUresult cuCtxPushCurrent(CUcontext ctx) {
    CUDA_MOCK_ENTER(cuCtxPushCurrent);
    return ctx_push(ctx, "cuCtxPushCurrent");
}

CUDA_MOCK_API CUresult cuCtxPopCurrent_v2(CUcontext *pctx) {
    CUDA_MOCK_ENTER(cuCtxPopCurrent_v2);
    return ctx_pop(pctx);
}

CUDA_MOCK_API CUresult cuCtxPopCurrent(CUcontext *pctx) {
    CUDA_MOCK_ENTER(cuCtxPopCurrent);
    return ctx_pop(pctx);
}

// The context `ctx` names, or the current one when it is NULL (the _v2
// functions of CUDA 13).
CUresult cuda_mock_ctx_or_current(CUcontext ctx, const char *call,
                                  struct CUctx_st **out) {
    if (ctx != NULL) {
        return cuda_mock_ctx_live(ctx, call, out);
    }
    return cuda_mock_ctx_current(out);
}

CUDA_MOCK_API CUresult cuCtxGetDevice(CUdevice *device) {
    CUDA_MOCK_ENTER(cuCtxGetDevice);
    if (device == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    struct CUctx_st *c;
    CUresult res = cuda_mock_ctx_current(&c);
    if (res == CUDA_SUCCESS) {
        *device = cuda_mock_ctx_device(c);
    }
    return res;
}

CUDA_MOCK_API CUresult cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx) {
    CUDA_MOCK_ENTER(cuCtxGetDevice_v2);
    if (device == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    struct CUctx_st *c;
    CUresult res = cuda_mock_ctx_or_current(ctx, "cuCtxGetDevice_v2", &c);
    if (res == CUDA_SUCCESS) {
        *device = cuda_mock_ctx_device(c);
    }
    return res;
}

// ---------------------------------------------------------------------------
// Context queries: flags, API version, limits

CUDA_MOCK_API CUresult cuCtxGetFlags(unsigned int *flags) {
    CUDA_MOCK_ENTER(cuCtxGetFlags);
    if (flags == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    struct CUctx_st *c;
    CUresult res = cuda_mock_ctx_current(&c);
    if (res == CUDA_SUCCESS) {
        *flags = atomic_load_explicit(&c->flags, memory_order_relaxed);
    }
    return res;
}

// The flags of cuCtxCreate, for the current context (of a primary context
// also what cuDevicePrimaryCtxGetState reports).
CUDA_MOCK_API CUresult cuCtxSetFlags(unsigned int flags) {
    CUDA_MOCK_ENTER(cuCtxSetFlags);
    CUresult res = check_ctx_flags(flags, "cuCtxSetFlags");
    if (res != CUDA_SUCCESS) {
        return res;
    }
    struct CUctx_st *c;
    res = cuda_mock_ctx_current(&c);
    if (res == CUDA_SUCCESS) {
        atomic_store_explicit(&c->flags, flags, memory_order_relaxed);
    }
    return res;
}

// A context of the process, NULL for the current one (CUDA 12).
CUDA_MOCK_API CUresult cuCtxGetId(CUcontext ctx, unsigned long long *ctxId) {
    CUDA_MOCK_ENTER(cuCtxGetId);
    if (ctxId == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    struct CUctx_st *c;
    CUresult res = cuda_mock_ctx_or_current(ctx, "cuCtxGetId", &c);
    if (res == CUDA_SUCCESS) {
        *ctxId = atomic_load_explicit(&c->id, memory_order_relaxed);
    }
    return res;
}

// Preferences for the L1 cache and shared memory of kernels, which the
// emulated devices run none of: kept per context and reported, as a driver
// does on devices where they have no effect.
static CUresult current_pref(bool cache, _Atomic int **field) {
    struct CUctx_st *c;
    CUresult res = cuda_mock_ctx_current(&c);
    if (res == CUDA_SUCCESS) {
        *field = cache ? &c->cache_config : &c->shmem_config;
    }
    return res;
}

CUDA_MOCK_API CUresult cuCtxGetCacheConfig(CUfunc_cache *pconfig) {
    CUDA_MOCK_ENTER(cuCtxGetCacheConfig);
    if (pconfig == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    _Atomic int *f;
    CUresult res = current_pref(true, &f);
    if (res == CUDA_SUCCESS) {
        *pconfig = (CUfunc_cache)atomic_load_explicit(f, memory_order_relaxed);
    }
    return res;
}

CUDA_MOCK_API CUresult cuCtxSetCacheConfig(CUfunc_cache config) {
    CUDA_MOCK_ENTER(cuCtxSetCacheConfig);
    if ((unsigned)config > CU_FUNC_CACHE_PREFER_EQUAL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    _Atomic int *f;
    CUresult res = current_pref(true, &f);
    if (res == CUDA_SUCCESS) {
        atomic_store_explicit(f, (int)config, memory_order_relaxed);
    }
    return res;
}

CUDA_MOCK_API CUresult cuCtxGetSharedMemConfig(CUsharedconfig *pConfig) {
    CUDA_MOCK_ENTER(cuCtxGetSharedMemConfig);
    if (pConfig == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    _Atomic int *f;
    CUresult res = current_pref(false, &f);
    if (res == CUDA_SUCCESS) {
        *pConfig =
            (CUsharedconfig)atomic_load_explicit(f, memory_order_relaxed);
    }
    return res;
}

CUDA_MOCK_API CUresult cuCtxSetSharedMemConfig(CUsharedconfig config) {
    CUDA_MOCK_ENTER(cuCtxSetSharedMemConfig);
    if ((unsigned)config > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    _Atomic int *f;
    CUresult res = current_pref(false, &f);
    if (res == CUDA_SUCCESS) {
        atomic_store_explicit(f, (int)config, memory_order_relaxed);
    }
    return res;
}

// No persisting L2 lines exist to reset.
CUDA_MOCK_API CUresult cuCtxResetPersistingL2Cache(void) {
    CUDA_MOCK_ENTER(cuCtxResetPersistingL2Cache);
    struct CUctx_st *c;
    return cuda_mock_ctx_current(&c);
}

// No affinity type is supported (cuDeviceGetExecAffinitySupport says 0),
// so a context has none to report.
CUDA_MOCK_API CUresult cuCtxGetExecAffinity(CUexecAffinityParam *pExecAffinity,
                                            CUexecAffinityType type) {
    CUDA_MOCK_ENTER(cuCtxGetExecAffinity);
    if (pExecAffinity == NULL || (unsigned)type >= CU_EXEC_AFFINITY_TYPE_MAX) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    struct CUctx_st *c;
    CUresult res = cuda_mock_ctx_current(&c);
    return res == CUDA_SUCCESS ? CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY : res;
}

// Every context of this driver is made by the _v2 (or later) functions,
// whose API version is 3020.
CUDA_MOCK_API CUresult cuCtxGetApiVersion(CUcontext ctx,
                                          unsigned int *version) {
    CUDA_MOCK_ENTER(cuCtxGetApiVersion);
    if (version == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    struct CUctx_st *c;
    CUresult res = cuda_mock_ctx_or_current(ctx, "cuCtxGetApiVersion", &c);
    if (res == CUDA_SUCCESS) {
        *version = 3020;
    }
    return res;
}

// The largest persisting L2 size (CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_
// CACHE_SIZE).
#define PERSISTING_L2_MAX 34078720u

// Limits a compute capability 9.0 device without CIG does not have:
// the device runtime's sync depth ("only applicable to devices of compute
// capability < 9.0") and the CIG limits.
static bool limit_unsupported(CUlimit limit) {
    return limit == CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH ||
           limit == CU_LIMIT_SHMEM_SIZE ||
           limit == CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED;
}

CUDA_MOCK_API CUresult cuCtxGetLimit(size_t *pvalue, CUlimit limit) {
    CUDA_MOCK_ENTER(cuCtxGetLimit);
    if (pvalue == NULL || (unsigned)limit >= CU_LIMIT_MAX) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    struct CUctx_st *c;
    CUresult res = cuda_mock_ctx_current(&c);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (limit_unsupported(limit)) {
        return CUDA_ERROR_UNSUPPORTED_LIMIT;
    }
    *pvalue =
        limit == CU_LIMIT_CIG_ENABLED
            ? 0
            : atomic_load_explicit(&c->limits[limit], memory_order_relaxed);
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuCtxSetLimit(CUlimit limit, size_t value) {
    CUDA_MOCK_ENTER(cuCtxSetLimit);
    if ((unsigned)limit >= CU_LIMIT_MAX) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    struct CUctx_st *c;
    CUresult res = cuda_mock_ctx_current(&c);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (limit_unsupported(limit)) {
        return CUDA_ERROR_UNSUPPORTED_LIMIT;
    }
    switch (limit) {
    case CU_LIMIT_CIG_ENABLED:
        return CUDA_ERROR_INVALID_VALUE; // "can only be queried"
    case CU_LIMIT_MAX_L2_FETCH_GRANULARITY:
        // "Values can range from 0B to 128B": a hint, clamped.
        value = value > 128 ? 128 : value;
        break;
    case CU_LIMIT_PERSISTING_L2_CACHE_SIZE:
        value = value > PERSISTING_L2_MAX ? PERSISTING_L2_MAX : value;
        break;
    default:
        break;
    }
    atomic_store_explicit(&c->limits[limit], value, memory_order_relaxed);
    return CUDA_SUCCESS;
}

// ---------------------------------------------------------------------------
// Peer access

// Index of `peer` in ctx's peers, or -1 (under `lock`).
static int peer_index(const struct CUctx_st *ctx, const struct CUctx_st *peer) {
    for (int i = 0; i < CUDA_MOCK_MAX_PEERS; i++) {
        if (ctx->peers[i].ctx == peer &&
            ctx->peers[i].gen ==
                atomic_load_explicit(&peer->gen, memory_order_relaxed)) {
            return i;
        }
    }
    return -1;
}

CUDA_MOCK_API CUresult cuCtxEnablePeerAccess(CUcontext peerContext,
                                             unsigned int Flags) {
    CUDA_MOCK_ENTER(cuCtxEnablePeerAccess);
    struct CUctx_st *c, *peer;
    CUresult res = cuda_mock_ctx_current(&c);
    if (res != CUDA_SUCCESS) {
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    if (peerContext == NULL ||
        cuda_mock_ctx_live(peerContext, "cuCtxEnablePeerAccess", &peer) !=
            CUDA_SUCCESS ||
        peer == c) {
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    if (Flags != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (cuda_mock_ctx_device(peer) == cuda_mock_ctx_device(c)) {
        // cuDeviceCanAccessPeer says 0 for a device and itself.
        return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
    }
    pthread_mutex_lock(&lock);
    if (peer_index(c, peer) >= 0) {
        res = CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
    } else {
        res = CUDA_ERROR_TOO_MANY_PEERS;
        for (int i = 0; i < CUDA_MOCK_MAX_PEERS; i++) {
            if (c->peers[i].ctx == NULL) {
                c->peers[i] = ref_of(peer);
                res = CUDA_SUCCESS;
                break;
            }
        }
    }
    pthread_mutex_unlock(&lock);
    return res;
}

CUDA_MOCK_API CUresult cuCtxDisablePeerAccess(CUcontext peerContext) {
    CUDA_MOCK_ENTER(cuCtxDisablePeerAccess);
    struct CUctx_st *c, *peer;
    if (cuda_mock_ctx_current(&c) != CUDA_SUCCESS || peerContext == NULL ||
        cuda_mock_ctx_live(peerContext, "cuCtxDisablePeerAccess", &peer) !=
            CUDA_SUCCESS) {
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    CUresult res = CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
    pthread_mutex_lock(&lock);
    int i = peer_index(c, peer);
    if (i >= 0) {
        c->peers[i].ctx = NULL;
        res = CUDA_SUCCESS;
    }
    pthread_mutex_unlock(&lock);
    return res;
}

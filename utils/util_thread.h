// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Per-thread state that costs no static TLS: the one pattern for it in the
// library and the emulated drivers.
//
// Why: each of libumf_gpu.so, libze_mock.so and the emulated libcuda.so.1
// must be loadable with dlopen() late, after start-up and in any order,
// next to other libraries. glibc keeps only a small surplus of static TLS
// for such libraries (about 1.5 KiB for all of them), and an initial-exec
// (or otherwise DF_STATIC_TLS) library that does not fit fails to load with
// "cannot allocate memory in static TLS block". So each of ours keeps at
// most 64 bytes of static TLS (test/abi checks every built library), and:
//
// 1. Large or rarely used per-thread state (messages, caches, stacks) lives
//    in a umf_thread_state_t: allocated, zeroed, at the thread's first
//    umf_thread_state_get(), released when the thread exits (a pthread key
//    destructor).
//
//        typedef struct my_state_t { ... } my_state_t;
//        static umf_thread_state_t my_state =
//            UMF_THREAD_STATE_INIT(sizeof(my_state_t), my_at_exit_or_NULL);
//
//        my_state_t *s = umf_thread_state_get(&my_state); // NULL: no memory
//        const my_state_t *r = umf_thread_state_peek(&my_state); // NULL:
//                                              // this thread has none yet
//        // in the library's destructor:
//        umf_thread_state_fini(&my_state);
//
//    get and peek cost one pthread_getspecific (a few ns, no lock, no
//    atomic read-modify-write); the first get of a thread takes a mutex.
//
// 2. Small state read on a hot path (a pointer, a slot number) may stay in
//    a thread-local variable marked UMF_TLS_HOT (initial-exec: one load).
//    Every such byte counts against the 64-byte budget; the usual use is to
//    cache the pointer that umf_thread_state_get() returned.
//
// Not the TLS descriptor dialect (-mtls-dialect=gnu2), which would need no
// static TLS at all: clang 14 (the sanitizer builds) lacks it, and before
// glibc 2.40 its slow path, taken exactly when a late-loaded library's TLS
// did not fit the surplus, clobbers the caller's vector registers
// (glibc bug 31372).

#ifndef UMF_GPU_UTIL_THREAD_H
#define UMF_GPU_UTIL_THREAD_H 1

#include <pthread.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

// A thread-local variable that stays in static TLS (see 2. above).
#define UMF_TLS_HOT __attribute__((tls_model("initial-exec")))

struct umf_thread_state_node_t;

// One kind of per-thread state. Make it with UMF_THREAD_STATE_INIT, static;
// the fields are the module's.
typedef struct umf_thread_state_t {
    size_t size; // bytes of each thread's state (aligned to 64)
    // Called with a thread's state when the thread exits, before the state
    // is freed (not at umf_thread_state_fini). May be NULL.
    void (*at_exit)(void *state);
    int key_state; // 0 none, 1 made, -1 could not be made (__atomic)
    pthread_key_t key;
    struct umf_thread_state_node_t *states; // every thread's (under a lock)
} umf_thread_state_t;

#define UMF_THREAD_STATE_INIT(size, at_exit)                                   \
    { (size), (at_exit), 0, 0, NULL }

// The calling thread's state, made (all bytes zero) at its first call; NULL
// when out of memory or when no pthread key could be made.
void *umf_thread_state_get(umf_thread_state_t *ts);

// The calling thread's state, or NULL if it has none yet. Never allocates.
static inline void *umf_thread_state_peek(umf_thread_state_t *ts) {
    return __atomic_load_n(&ts->key_state, __ATOMIC_ACQUIRE) == 1
               ? pthread_getspecific(ts->key)
               : NULL;
}

// For the unloading library (its destructor): deletes the key, so that no
// exiting thread calls into unmapped code. The states of threads still
// alive stay allocated and listed (a destructor also runs at exit, while
// other threads may still use theirs); a later get makes a new key and a
// new state.
void umf_thread_state_fini(umf_thread_state_t *ts);

// Number of threads that have a state of this kind (for tests).
size_t umf_thread_state_count(umf_thread_state_t *ts);

#ifdef __cplusplus
}
#endif

#endif // UMF_GPU_UTIL_THREAD_H

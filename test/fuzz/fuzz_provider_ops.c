// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Fuzz target: the parameters and size/alignment arguments of alloc, free,
// split and merge (and of the calls around them: IPC get, properties, page
// sizes, purge) of a provider (FUZZ_KIND), through the public API on the
// emulated driver. The input is a program: each operation takes a byte for
// its kind and bytes for its arguments, which are the model's own pieces
// (what the provider handed out), pointers into or past them, freed ones,
// or raw values: sizes of 0, small, large and any 64-bit number, alignments
// of 0, powers of two up to 2^63 and anything else.
//
// A model of the live pieces says what must happen: a call with valid
// arguments succeeds (an allocation may also run out of memory), a call
// with invalid ones fails with the documented error and changes nothing.
// Every piece carries a mark that is checked before it is freed (no two
// pieces overlap, no piece is freed by another's free). At the end of each
// input everything is freed, and the provider's counters and the driver's
// live allocations are back at zero.

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_target.h"

#ifndef FUZZ_KIND
#error "FUZZ_KIND must name the provider kind"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_PIECES 24
#define MARK 16 // bytes of a piece's mark

typedef struct piece_t {
    char *ptr;
    size_t size;
    unsigned group; // pieces of one allocation share it
    uint32_t mark;
    bool whole; // a whole allocation, never split, not over-aligned
} piece_t;

typedef struct model_t {
    piece_t pieces[MAX_PIECES];
    int count;
    unsigned groups;
    uint64_t bytes; // what the counters must say is allocated
    // The counters count the sizes passed to free ("allocated_bytes",
    // memory_provider_gpu.h); for free(ptr, 0) the Level Zero provider
    // counts the size it registered, the CUDA provider (which keeps no
    // sizes) 0 for a whole driver allocation: after that, its count is
    // not the model's.
    bool inexact;
    bool big;       // an allocation of 512 MiB or more was made in this input
    char *freed[8]; // recently freed pointers
    unsigned freed_next;
} model_t;

typedef struct input_t {
    const uint8_t *p;
    size_t left;
} input_t;

static const fuzz_target_t *target;
static int64_t base_allocs;
static uint64_t base_bytes; // the counter at the start of an input
static bool trace;          // UMF_FUZZ_TRACE set: print every call

#define TRACE(...)                                                             \
    do {                                                                       \
        if (trace) {                                                           \
            fprintf(stderr, __VA_ARGS__);                                      \
        }                                                                      \
    } while (0)

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    target = fuzz_target(FUZZ_KIND);
    base_allocs = fuzz_live(target, UMF_GPU_MOCK_LIVE_ALLOCATIONS);
    trace = getenv("UMF_FUZZ_TRACE") != NULL;
    return 0;
}

static uint64_t take(input_t *in, size_t bytes) {
    uint64_t v = 0;
    for (size_t i = 0; i < bytes && in->left > 0; i++) {
        v |= (uint64_t)*in->p++ << (8 * i);
        in->left--;
    }
    return v;
}

static bool is_pow2_or_0(uint64_t a) {
    return (a & (a - 1)) == 0;
}

static void put_mark(piece_t *pc) {
    size_t n = pc->size < MARK ? pc->size : MARK;
    unsigned char bytes[MARK];
    for (size_t i = 0; i < n; i++) {
        bytes[i] =
            (unsigned char)(pc->mark >> (8 * (i % 4))) ^ (unsigned char)i;
    }
    FUZZ_CHECK(fuzz_copy(target, pc->ptr, bytes, n), "copy to a piece failed");
}

static void check_mark(const piece_t *pc) {
    size_t n = pc->size < MARK ? pc->size : MARK;
    unsigned char got[MARK];
    FUZZ_CHECK(fuzz_copy(target, got, pc->ptr, n), "copy from a piece failed");
    for (size_t i = 0; i < n; i++) {
        FUZZ_CHECK(got[i] == ((unsigned char)(pc->mark >> (8 * (i % 4))) ^
                              (unsigned char)i),
                   "piece %p (%zu bytes) lost its mark", (void *)pc->ptr,
                   pc->size);
    }
}

static size_t fuzz_size(input_t *in) {
    switch (take(in, 1) % 6) {
    case 0:
        return 0;
    case 1:
        return 1 + (size_t)take(in, 1);
    case 2:
        return 1 + (size_t)(take(in, 2) % 65536);
    case 3:
        return 1 + (size_t)(take(in, 3) % (4u << 20));
    case 4:
        return (size_t)take(in, 8); // anything
    default:
        return (size_t)1 << (take(in, 1) % 64);
    }
}

static size_t fuzz_alignment(input_t *in) {
    switch (take(in, 1) % 4) {
    case 0:
        return 0;
    case 1:
        return (size_t)1 << (take(in, 1) % 64);
    case 2:
        return (size_t)take(in, 8);
    default:
        return (size_t)1 << (take(in, 1) % 22);
    }
}

static bool overlaps_live(const model_t *m, const char *p, size_t size) {
    for (int i = 0; i < m->count; i++) {
        const piece_t *pc = &m->pieces[i];
        if (p < pc->ptr + pc->size && pc->ptr < p + size) {
            return true;
        }
    }
    return false;
}

static void op_alloc(model_t *m, input_t *in) {
    size_t size = fuzz_size(in), align = fuzz_alignment(in);
    void *p = NULL;
    umf_result_t r = umfMemoryProviderAlloc(target->provider, size, align, &p);
    TRACE("alloc(%zu, %zu) = %d, %p\n", size, align, r, p);
    // Both wrong: either error will do.
    if (size == 0 &&
        (is_pow2_or_0(align) || r != UMF_RESULT_ERROR_INVALID_ALIGNMENT)) {
        FUZZ_CHECK(r == UMF_RESULT_ERROR_INVALID_ARGUMENT,
                   "alloc of 0 bytes: %d", r);
        return;
    }
    if (!is_pow2_or_0(align)) {
        FUZZ_CHECK(r == UMF_RESULT_ERROR_INVALID_ALIGNMENT,
                   "alloc with alignment %zu: %d", align, r);
        return;
    }
    if (r != UMF_RESULT_SUCCESS) {
        // Too much for the device, an alignment the driver does not take.
        FUZZ_CHECK(r == UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC ||
                       r == UMF_RESULT_ERROR_INVALID_ARGUMENT ||
                       r == UMF_RESULT_ERROR_INVALID_ALIGNMENT,
                   "alloc(%zu, %zu): %d", size, align, r);
        // Small requests fail only when the pieces hold much of the
        // device's memory (4 GiB on the emulated driver).
        if (size <= (1u << 20) && align <= (1u << 20) && !m->big &&
            m->bytes < (512u << 20)) {
            const char *msg = NULL;
            int32_t code = 0;
            umfMemoryProviderGetLastNativeError(target->provider, &msg, &code);
            fuzz_fail("alloc(%zu, %zu) failed: %d, native %d: %s", size, align,
                      r, code, msg ? msg : "(null)");
        }
        return;
    }
    FUZZ_CHECK(p != NULL && (align == 0 || (uintptr_t)p % align == 0),
               "alloc(%zu, %zu) returned %p", size, align, p);
    FUZZ_CHECK(!overlaps_live(m, p, size), "alloc returned live memory %p", p);
    m->big |= size >= (512u << 20);
    if (m->count == MAX_PIECES) {
        FUZZ_CHECK(umfMemoryProviderFree(target->provider, p, size) ==
                       UMF_RESULT_SUCCESS,
                   "free of a fresh allocation failed");
        return;
    }
    piece_t *pc = &m->pieces[m->count++];
    pc->ptr = p;
    pc->size = size;
    pc->group = ++m->groups;
    pc->whole = align <= 256;
    pc->mark = (uint32_t)(uintptr_t)p ^ (uint32_t)size * 2654435761u;
    m->bytes += size;
    put_mark(pc);
}

// Drops piece i from the model; `freed`: its memory went back.
static void forget(model_t *m, int i, bool freed) {
    if (freed) {
        m->freed[m->freed_next++ % 8] = m->pieces[i].ptr;
    }
    m->pieces[i] = m->pieces[--m->count];
}

// A pointer that is no piece's start: inside one, past one, freed, static.
static char *bogus(const model_t *m, input_t *in) {
    static char static_memory[64];
    uint64_t k = take(in, 1);
    if (m->count > 0 && k % 4 < 2) {
        const piece_t *pc = &m->pieces[take(in, 1) % (uint64_t)m->count];
        return k % 4 == 0 ? pc->ptr + 1 + take(in, 2) % pc->size
                          : pc->ptr + pc->size;
    }
    if (k % 4 == 2 && m->freed[0] != NULL) {
        char *p = m->freed[take(in, 1) % 8];
        if (p != NULL) {
            return p;
        }
    }
    return static_memory;
}

static bool is_piece_start(const model_t *m, const char *p) {
    for (int i = 0; i < m->count; i++) {
        if (m->pieces[i].ptr == p) {
            return true;
        }
    }
    return false;
}

static void op_free(model_t *m, input_t *in) {
    uint64_t k = take(in, 1);
    if (m->count > 0 && k % 3 != 0) {
        int i = (int)(take(in, 1) % (uint64_t)m->count);
        piece_t pc = m->pieces[i];
        check_mark(&pc);
        // The exact size, or 0 ("the size it has").
        size_t size = k % 3 == 1 ? pc.size : 0;
        umf_result_t r = umfMemoryProviderFree(target->provider, pc.ptr, size);
        FUZZ_CHECK(r == UMF_RESULT_SUCCESS,
                   "free(%p, %zu) of a %zu-byte "
                   "piece: %d",
                   (void *)pc.ptr, size, pc.size, r);
        m->bytes -= pc.size;
        m->inexact |= size == 0 && target->kind == UMF_TEST_GPU_CUDA;
        forget(m, i, true);
        return;
    }
    char *p = bogus(m, in);
    if (is_piece_start(m, p) || p == NULL) {
        return; // a freed address that a live piece has taken since
    }
    umf_result_t r = umfMemoryProviderFree(target->provider, p, 1);
    TRACE("free(%p, 1) (no piece) = %d\n", (void *)p, r);
    FUZZ_CHECK(r == UMF_RESULT_ERROR_INVALID_ARGUMENT ||
                   r == UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC,
               "free of %p, no piece's start: %d", (void *)p, r);
}

static void op_split(model_t *m, input_t *in) {
    if (m->count == 0) {
        return;
    }
    int i = (int)(take(in, 1) % (uint64_t)m->count);
    piece_t *pc = &m->pieces[i];
    uint64_t k = take(in, 1);
    size_t total = k % 4 == 0 ? fuzz_size(in) : pc->size;
    size_t first = k % 4 == 1     ? fuzz_size(in)
                   : pc->size > 1 ? 1 + (size_t)(take(in, 4) % (pc->size - 1))
                                  : 0;
    bool valid = total == pc->size && first > 0 && first < total;
    umf_result_t r = umfMemoryProviderAllocationSplit(target->provider, pc->ptr,
                                                      total, first);
    TRACE("split(%p, %zu, %zu) = %d\n", (void *)pc->ptr, total, first, r);
    // The CUDA provider knows a whole allocation's size only as the driver
    // tells it, maybe rounded up: it takes a smaller total for one. The
    // pieces are then what it was told, and the rest in none.
    if (!valid && r == UMF_RESULT_SUCCESS &&
        target->kind == UMF_TEST_GPU_CUDA && pc->whole && first > 0 &&
        first < total && total < pc->size) {
        m->inexact = true;
        m->bytes -= pc->size - total;
        pc->size = total;
        valid = true;
    }
    if (!valid || m->count == MAX_PIECES) {
        if (valid && r == UMF_RESULT_SUCCESS) {
            // No room in the model: put it back together.
            FUZZ_CHECK(umfMemoryProviderAllocationMerge(
                           target->provider, pc->ptr, pc->ptr + first, total) ==
                           UMF_RESULT_SUCCESS,
                       "merge after a split failed");
            return;
        }
        FUZZ_CHECK(valid || r == UMF_RESULT_ERROR_INVALID_ARGUMENT,
                   "split(%zu of %zu, at %zu): %d", total, pc->size, first, r);
        return;
    }
    FUZZ_CHECK(r == UMF_RESULT_SUCCESS, "split(%zu, at %zu): %d", total, first,
               r);
    piece_t high = {pc->ptr + first, total - first, pc->group,
                    pc->mark * 2654435761u + 1, false};
    pc->size = first;
    pc->whole = false;
    m->pieces[m->count++] = high;
    put_mark(&m->pieces[m->count - 1]);
    put_mark(pc);
}

static void op_merge(model_t *m, input_t *in) {
    if (m->count < 2) {
        return;
    }
    int a = (int)(take(in, 1) % (uint64_t)m->count);
    int b = (int)(take(in, 1) % (uint64_t)m->count);
    piece_t *lo = &m->pieces[a], *hi = &m->pieces[b];
    uint64_t k = take(in, 1);
    size_t total = k % 4 == 0 ? fuzz_size(in) : lo->size + hi->size;
    bool valid = a != b && lo->ptr + lo->size == hi->ptr &&
                 lo->group == hi->group && total == lo->size + hi->size;
    umf_result_t r = umfMemoryProviderAllocationMerge(target->provider, lo->ptr,
                                                      hi->ptr, total);
    TRACE("merge(%p, %p, %zu) = %d\n", (void *)lo->ptr, (void *)hi->ptr, total,
          r);
    if (!valid) {
        FUZZ_CHECK(r == UMF_RESULT_ERROR_INVALID_ARGUMENT,
                   "merge of %p (%zu) and %p (%zu) as %zu: %d", (void *)lo->ptr,
                   lo->size, (void *)hi->ptr, hi->size, total, r);
        return;
    }
    FUZZ_CHECK(r == UMF_RESULT_SUCCESS, "merge of adjacent pieces: %d", r);
    lo->size = total;
    put_mark(lo);
    forget(m, b, false);
}

// In the rest of the driver page after a whole allocation: memory of its
// driver allocation, for all a CUDA provider (which keeps no sizes) knows.
static bool in_page_tail(const model_t *m, const char *p) {
    for (int i = 0; i < m->count; i++) {
        const piece_t *pc = &m->pieces[i];
        uintptr_t end = (uintptr_t)pc->ptr + pc->size;
        if (pc->whole && (uintptr_t)p >= end &&
            (uintptr_t)p < ((end + 4095) & ~(uintptr_t)4095)) {
            return true;
        }
    }
    return false;
}

static void op_query(model_t *m, input_t *in) {
    uint64_t k = take(in, 1);
    bool own = m->count > 0 && k % 2 == 0;
    const piece_t *pc =
        own ? &m->pieces[take(in, 1) % (uint64_t)m->count] : NULL;
    char *p = own ? pc->ptr + take(in, 3) % pc->size : bogus(m, in);
    bool inside = own;
    for (int i = 0; !inside && i < m->count; i++) {
        inside =
            p >= m->pieces[i].ptr && p < m->pieces[i].ptr + m->pieces[i].size;
    }
    if (!inside && target->kind == UMF_TEST_GPU_CUDA && in_page_tail(m, p)) {
        return; // either answer is right
    }
    switch ((k >> 1) % 4) {
    case 0: {
        umf_gpu_allocation_properties_t props;
        umf_result_t r = umfGpuMemoryProviderGetAllocationProperties(
            target->provider, p, &props);
        if (own) {
            FUZZ_CHECK(r == UMF_RESULT_SUCCESS && props.base == pc->ptr &&
                           props.size == pc->size,
                       "properties of %p in a %zu-byte piece %p: %d, %p %zu",
                       (void *)p, pc->size, (void *)pc->ptr, r, props.base,
                       props.size);
        } else if (!inside) {
            FUZZ_CHECK(r != UMF_RESULT_SUCCESS,
                       "properties of %p, no piece's memory", (void *)p);
        }
        break;
    }
    case 1: {
        size_t page = 0;
        umf_result_t r =
            umfMemoryProviderGetMinPageSize(target->provider, p, &page);
        FUZZ_CHECK(r != UMF_RESULT_SUCCESS || (page > 0 && is_pow2_or_0(page)),
                   "page size %zu", page);
        FUZZ_CHECK(!inside || r == UMF_RESULT_SUCCESS, "page size: %d", r);
        break;
    }
    case 2: {
        unsigned char buf[256];
        size_t size =
            k % 8 < 4 && own ? pc->size - (size_t)(p - pc->ptr) : fuzz_size(in);
        umf_result_t r =
            umfMemoryProviderGetIPCHandle(target->provider, p, size, buf);
        if (r == UMF_RESULT_SUCCESS) {
            FUZZ_CHECK(inside, "IPC handle of %p, no piece's memory",
                       (void *)p);
            // Only what the piece holds is shared (a CUDA provider's whole
            // allocation: up to the driver's page).
            size_t room = own ? pc->size - (size_t)(p - pc->ptr) : SIZE_MAX;
            if (own && target->kind == UMF_TEST_GPU_CUDA && pc->whole) {
                uintptr_t end = (uintptr_t)pc->ptr + pc->size;
                room += (size_t)(((end + 4095) & ~(uintptr_t)4095) - end);
            }
            FUZZ_CHECK(size <= room,
                       "IPC handle of %zu bytes at %p, %zu in "
                       "its piece",
                       size, (void *)p, room);
            void *q = NULL;
            FUZZ_CHECK(umfMemoryProviderOpenIPCHandle(
                           target->provider, buf, &q) == UMF_RESULT_SUCCESS &&
                           q == p,
                       "own IPC data of %p opened as %p", (void *)p, q);
            FUZZ_CHECK(umfMemoryProviderCloseIPCHandle(
                           target->provider, q, size) == UMF_RESULT_SUCCESS,
                       "close failed");
            FUZZ_CHECK(umfMemoryProviderPutIPCHandle(target->provider, buf) ==
                           UMF_RESULT_SUCCESS,
                       "put failed");
        } else {
            FUZZ_CHECK(r == UMF_RESULT_ERROR_INVALID_ARGUMENT,
                       "IPC handle of %p (%zu bytes): %d", (void *)p, size, r);
        }
        break;
    }
    default: {
        umf_result_t r =
            k % 16 < 8 ? umfMemoryProviderPurgeLazy(target->provider, p, 1)
                       : umfMemoryProviderPurgeForce(target->provider, p, 1);
        FUZZ_CHECK(r == UMF_RESULT_ERROR_NOT_SUPPORTED, "purge: %d", r);
        break;
    }
    }
}

static void check_stats(const model_t *m) {
    umf_gpu_provider_stats_t st;
    FUZZ_CHECK(umfGpuMemoryProviderGetStats(target->provider, &st) ==
                   UMF_RESULT_SUCCESS,
               "stats failed");
    FUZZ_CHECK(m->inexact || st.allocated_bytes - base_bytes == m->bytes,
               "the counters say %llu bytes allocated, the pieces hold %llu",
               (unsigned long long)(st.allocated_bytes - base_bytes),
               (unsigned long long)m->bytes);
    FUZZ_CHECK(st.ipc_handles_exported == 0 && st.ipc_handles_open == 0,
               "IPC counters %llu exported, %llu open",
               (unsigned long long)st.ipc_handles_exported,
               (unsigned long long)st.ipc_handles_open);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    model_t m;
    memset(&m, 0, sizeof(m));
    input_t in = {data, size};
    umf_gpu_provider_stats_t st;
    FUZZ_CHECK(umfGpuMemoryProviderGetStats(target->provider, &st) ==
                   UMF_RESULT_SUCCESS,
               "stats failed");
    base_bytes = st.allocated_bytes;
    for (int ops = 0; in.left > 0 && ops < 64; ops++) {
        switch (take(&in, 1) % 6) {
        case 0:
        case 1:
            op_alloc(&m, &in);
            break;
        case 2:
            op_free(&m, &in);
            break;
        case 3:
            op_split(&m, &in);
            break;
        case 4:
            op_merge(&m, &in);
            break;
        default:
            op_query(&m, &in);
            break;
        }
        check_stats(&m);
    }
    while (m.count > 0) {
        piece_t pc = m.pieces[m.count - 1];
        check_mark(&pc);
        umf_result_t r =
            umfMemoryProviderFree(target->provider, pc.ptr, pc.size);
        FUZZ_CHECK(r == UMF_RESULT_SUCCESS, "final free of %p: %d",
                   (void *)pc.ptr, r);
        m.bytes -= pc.size;
        m.count--;
    }
    check_stats(&m);
    int64_t allocs = fuzz_live(target, UMF_GPU_MOCK_LIVE_ALLOCATIONS);
    FUZZ_CHECK(allocs == base_allocs,
               "%lld driver allocations left (were %lld)", (long long)allocs,
               (long long)base_allocs);
    return 0;
}

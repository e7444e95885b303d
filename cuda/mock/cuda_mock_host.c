// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Pinned host memory beyond allocation: cuMemHostGetFlags,
// cuMemHostGetDevicePointer_v2, and registration of the program's own
// memory (cuMemHostRegister_v2, cuMemHostUnregister).
//
// The emulated devices have unified addressing and can use host pointers
// for registered memory (CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_
// REGISTERED_MEM), so the device pointer of pinned memory is the host
// pointer itself, for every allocation and registration (on such devices
// all pinned memory is mapped; DEVICEMAP is recorded and reported).
//
// A registered range is any byte range of mapped memory (not only whole
// pages: two registrations may share a page, as they may on a GPU), so
// registrations are not in the page-granular registry of the core but in
// a table of their own, sorted by address, under one lock (registering is
// rare). A registration belongs to the context current when it was made
// and goes with it; it may not overlap another one or memory of the driver
// (CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED). Pointer queries
// (cuda_mock_memory.c) see it through cuda_mock_host_lookup().

#include "cuda_mock_core.h"
#include "cuda_mock_memory.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define REGISTER_FLAGS                                                         \
    ((unsigned)(CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP |   \
                CU_MEMHOSTREGISTER_IOMEMORY | CU_MEMHOSTREGISTER_READ_ONLY))

typedef struct reg_t {
    uintptr_t base;
    size_t size;
    unsigned flags;
    uint64_t id;
    const cuda_mock_ctx_t *ctx;
} reg_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static reg_t *regs; // sorted by base, never overlapping
static size_t nregs, regs_cap;
static uint64_t next_id = 1;

// The index of the first registration ending after `addr` (under `lock`).
static size_t reg_index(uintptr_t addr) {
    size_t lo = 0, hi = nregs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (regs[mid].base + regs[mid].size <= addr) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

static bool reg_holds(size_t i, uintptr_t addr) {
    return i < nregs && regs[i].base <= addr &&
           addr - regs[i].base < regs[i].size;
}

bool cuda_mock_host_lookup(const void *p, umf_mock_alloc_info_t *info) {
    uintptr_t a = (uintptr_t)p;
    bool found = false;
    pthread_mutex_lock(&lock);
    size_t i = reg_index(a);
    if (reg_holds(i, a)) {
        memset(info, 0, sizeof(*info));
        info->base = (void *)regs[i].base;
        info->size = regs[i].size;
        info->mapped = regs[i].size;
        info->id = regs[i].id;
        info->kind = UMF_MOCK_KIND_HOST;
        info->device = -1;
        info->owner = (uintptr_t)regs[i].ctx;
        info->user_flags = regs[i].flags | CUDA_MOCK_HOST_REGISTERED;
        found = true;
    }
    pthread_mutex_unlock(&lock);
    return found;
}

// Pinned memory holding `p`: an allocation of the driver or a registration.
static bool pinned(const void *p, umf_mock_alloc_info_t *info) {
    if (umf_mock_lookup(p, info) == UMF_MOCK_OK) {
        return info->kind == UMF_MOCK_KIND_HOST;
    }
    return cuda_mock_host_lookup(p, info);
}

// The queries' checks: a current context, and pinned memory at `p`.
static CUresult query_pinned(const void *p, const char *call,
                             umf_mock_alloc_info_t *info) {
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_ctx_current(&ctx);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if (!pinned(p, info)) {
        UMF_MOCK_LOG_ERROR("%s(%p): not pinned host memory of this driver",
                           call, p);
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuMemHostGetFlags(unsigned int *pFlags, void *p) {
    CUDA_MOCK_ENTER(cuMemHostGetFlags);
    if (pFlags == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    umf_mock_alloc_info_t info;
    CUresult res = query_pinned(p, "cuMemHostGetFlags", &info);
    if (res == CUDA_SUCCESS) {
        *pFlags = info.user_flags & ~CUDA_MOCK_HOST_REGISTERED;
    }
    return res;
}

CUDA_MOCK_API CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p,
                                                    unsigned int Flags) {
    CUDA_MOCK_ENTER(cuMemHostGetDevicePointer_v2);
    if (pdptr == NULL || Flags != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    umf_mock_alloc_info_t info;
    CUresult res = query_pinned(p, "cuMemHostGetDevicePointer_v2", &info);
    if (res == CUDA_SUCCESS) {
        // Unified addressing: the host pointer is the device pointer,
        // interior pointers included.
        *pdptr = (CUdeviceptr)(uintptr_t)p;
    }
    return res;
}

// True when every page of [base, base + size) is mapped in this process.
static bool range_mapped(uintptr_t base, size_t size) {
    uintptr_t page = umf_mock_page_size;
    uintptr_t first = base & ~(page - 1);
    uintptr_t end = (base + size + page - 1) & ~(page - 1);
    // msync fails with ENOMEM on any unmapped page of the range.
    return msync((void *)first, end - first, MS_ASYNC) == 0 || errno != ENOMEM;
}

// True when [base, base + size) touches memory of the driver's registry.
static bool overlaps_driver_memory(uintptr_t base, size_t size,
                                   umf_mock_alloc_info_t *info) {
    uintptr_t page = umf_mock_page_size;
    uintptr_t end = base + size;
    for (uintptr_t a = base; a < end; a = (a & ~(page - 1)) + page) {
        if (umf_mock_lookup((const void *)a, info) == UMF_MOCK_OK) {
            return true;
        }
    }
    return false;
}

static CUresult host_register(void *p, size_t bytesize, unsigned int Flags,
                              const char *call) {
    uintptr_t base = (uintptr_t)p;
    if (p == NULL || bytesize == 0 || bytesize > UINTPTR_MAX - base ||
        (Flags & ~REGISTER_FLAGS) != 0) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_ctx_current(&ctx);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if ((Flags & CU_MEMHOSTREGISTER_IOMEMORY) != 0) {
        UMF_MOCK_LOG_ERROR("%s(%p): the emulated devices cannot map I/O "
                           "memory (CU_MEMHOSTREGISTER_IOMEMORY)",
                           call, p);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    if (!range_mapped(base, bytesize)) {
        UMF_MOCK_LOG_ERROR("%s(%p, %zu): not mapped memory", call, p, bytesize);
        return CUDA_ERROR_INVALID_VALUE;
    }
    umf_mock_alloc_info_t info;
    if (overlaps_driver_memory(base, bytesize, &info)) {
        UMF_MOCK_LOG_ERROR(
            "%s(%p, %zu): overlaps %s of this driver at %p", call, p, bytesize,
            info.kind == UMF_MOCK_KIND_HOST ? "pinned memory" : "device memory",
            info.base);
        return info.kind == UMF_MOCK_KIND_HOST
                   ? CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED
                   : CUDA_ERROR_INVALID_VALUE;
    }
    res = CUDA_SUCCESS;
    pthread_mutex_lock(&lock);
    size_t i = reg_index(base);
    if (i < nregs && regs[i].base < base + bytesize) {
        UMF_MOCK_LOG_ERROR("%s(%p, %zu): overlaps the registration of [%p, "
                           "+%zu)",
                           call, p, bytesize, (void *)regs[i].base,
                           regs[i].size);
        res = CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
        goto out;
    }
    if (nregs == regs_cap) {
        size_t cap = regs_cap != 0 ? 2 * regs_cap : 16;
        reg_t *n = realloc(regs, cap * sizeof(*n));
        if (n == NULL) {
            res = CUDA_ERROR_OUT_OF_MEMORY;
            goto out;
        }
        regs = n;
        regs_cap = cap;
    }
    if (!umf_mock_object_add(CUDA_MOCK_OBJECT_HOST_REGISTRATION, p)) {
        res = CUDA_ERROR_OUT_OF_MEMORY;
        goto out;
    }
    memmove(&regs[i + 1], &regs[i], (nregs - i) * sizeof(*regs));
    regs[i] = (reg_t){base, bytesize, Flags, next_id++, ctx};
    nregs++;
out:
    pthread_mutex_unlock(&lock);
    return res;
}

CUDA_MOCK_API CUresult cuMemHostRegister_v2(void *p, size_t bytesize,
                                            unsigned int Flags) {
    CUDA_MOCK_ENTER(cuMemHostRegister_v2);
    return host_register(p, bytesize, Flags, "cuMemHostRegister_v2");
}

// CUDA 4's name (the same arguments).
CUDA_MOCK_API CUresult cuMemHostRegister(void *p, size_t bytesize,
                                         unsigned int Flags) {
    CUDA_MOCK_ENTER(cuMemHostRegister);
    return host_register(p, bytesize, Flags, "cuMemHostRegister");
}

static void remove_at(size_t i) {
    (void)umf_mock_object_remove(CUDA_MOCK_OBJECT_HOST_REGISTRATION,
                                 (const void *)regs[i].base);
    memmove(&regs[i], &regs[i + 1], (nregs - i - 1) * sizeof(*regs));
    nregs--;
}

CUDA_MOCK_API CUresult cuMemHostUnregister(void *p) {
    CUDA_MOCK_ENTER(cuMemHostUnregister);
    if (p == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    uintptr_t base = (uintptr_t)p;
    CUresult res = CUDA_SUCCESS;
    pthread_mutex_lock(&lock);
    size_t i = reg_index(base);
    if (!reg_holds(i, base) || regs[i].base != base) {
        UMF_MOCK_LOG_ERROR("cuMemHostUnregister(%p): %s", p,
                           reg_holds(i, base)
                               ? "inside a registration, not its start"
                               : "not registered");
        res = CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
    } else {
        remove_at(i);
    }
    pthread_mutex_unlock(&lock);
    return res;
}

static void host_ctx_teardown(const cuda_mock_ctx_t *ctx) {
    pthread_mutex_lock(&lock);
    for (size_t i = nregs; i > 0; i--) {
        if (regs[i - 1].ctx == ctx) {
            remove_at(i - 1);
        }
    }
    pthread_mutex_unlock(&lock);
}
CUDA_MOCK_CTX_TEARDOWN(CUDA_MOCK_TEARDOWN_HOST, host_ctx_teardown);

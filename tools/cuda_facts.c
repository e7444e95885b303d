// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// umf-gpu-cuda-facts: asks a CUDA driver the questions on which the
// emulated libcuda and the CUDA provider rely on a real driver's behaviour,
// and prints one "name: answer" line for each, so that the real-GPU check
// (tools/device-check.sh) can put a real driver's answers next to the
// emulated driver's, line by line:
//
//   interior IPC handle       is cuIpcGetMemHandle of base + 4 KiB the
//                             handle of the whole allocation?
//   reopen same context       a second cuIpcOpenMemHandle_v2 of one handle in
//                             one context of another process: its result,
//                             and whether it gives the same pointer
//   error name unknown        cuGetErrorName/cuGetErrorString of code 12345
//   out of memory             cuMemAlloc_v2, cuMemAllocHost_v2 and cuMemCreate
//                             of far more than the device has
//   address range             cuMemGetAddressRange_v2 sizes of 1, 1000 and
//                             4097-byte allocations, and of an interior
//                             pointer
//   vmm granularity           minimum and recommended, pinned device memory
//   primary reset             what an allocation made in the primary
//                             context is after cuDevicePrimaryCtxReset_v2,
//                             and the primary context's state after it
//   free in another context   cuMemFree_v2 while another context, or none,
//                             is current (the CUDA provider frees in the
//                             caller's context first)
//   free interior             cuMemFree_v2 of an interior pointer
//
// The driver is the one UMF_GPU_CUDA_LIB names, else libcuda.so.1. Exit
// status 0 when every question could be asked (whatever the answers).

#include <cuda.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "driver_open.h"

static struct {
    CUresult (*Init)(unsigned);
    CUresult (*DeviceGet)(CUdevice *, int);
    CUresult (*CtxCreate)(CUcontext *, unsigned, CUdevice);
    CUresult (*CtxDestroy)(CUcontext);
    CUresult (*CtxSetCurrent)(CUcontext);
    CUresult (*PrimaryRetain)(CUcontext *, CUdevice);
    CUresult (*PrimaryRelease)(CUdevice);
    CUresult (*PrimaryReset)(CUdevice);
    CUresult (*PrimaryGetState)(CUdevice, unsigned *, int *);
    CUresult (*MemAlloc)(CUdeviceptr *, size_t);
    CUresult (*MemFree)(CUdeviceptr);
    CUresult (*MemAllocHost)(void **, size_t);
    CUresult (*MemGetAddressRange)(CUdeviceptr *, size_t *, CUdeviceptr);
    CUresult (*IpcGetMemHandle)(CUipcMemHandle *, CUdeviceptr);
    CUresult (*IpcOpenMemHandle)(CUdeviceptr *, CUipcMemHandle, unsigned);
    CUresult (*IpcCloseMemHandle)(CUdeviceptr);
    CUresult (*GetErrorName)(CUresult, const char **);
    CUresult (*GetErrorString)(CUresult, const char **);
    CUresult (*Granularity)(size_t *, const CUmemAllocationProp *,
                            CUmemAllocationGranularity_flags);
    CUresult (*MemCreate)(CUmemGenericAllocationHandle *, size_t,
                          const CUmemAllocationProp *, unsigned long long);
    CUresult (*MemRelease)(CUmemGenericAllocationHandle);
} cu;

#define SYM(field, name)                                                       \
    { name, (void **)&cu.field }
static const driver_symbol_t symbols[] = {
    SYM(Init, "cuInit"),
    SYM(DeviceGet, "cuDeviceGet"),
    SYM(CtxCreate, "cuCtxCreate_v2"),
    SYM(CtxDestroy, "cuCtxDestroy_v2"),
    SYM(CtxSetCurrent, "cuCtxSetCurrent"),
    SYM(PrimaryRetain, "cuDevicePrimaryCtxRetain"),
    SYM(PrimaryRelease, "cuDevicePrimaryCtxRelease_v2"),
    SYM(PrimaryReset, "cuDevicePrimaryCtxReset_v2"),
    SYM(PrimaryGetState, "cuDevicePrimaryCtxGetState"),
    SYM(MemAlloc, "cuMemAlloc_v2"),
    SYM(MemFree, "cuMemFree_v2"),
    SYM(MemAllocHost, "cuMemAllocHost_v2"),
    SYM(MemGetAddressRange, "cuMemGetAddressRange_v2"),
    SYM(IpcGetMemHandle, "cuIpcGetMemHandle"),
    SYM(IpcOpenMemHandle, "cuIpcOpenMemHandle_v2"),
    SYM(IpcCloseMemHandle, "cuIpcCloseMemHandle"),
    SYM(GetErrorName, "cuGetErrorName"),
    SYM(GetErrorString, "cuGetErrorString"),
    SYM(Granularity, "cuMemGetAllocationGranularity"),
    SYM(MemCreate, "cuMemCreate"),
    SYM(MemRelease, "cuMemRelease"),
};

// The name of a result, as this driver gives it ("?" where it has none).
static const char *name_of(CUresult r) {
    const char *s = NULL;
    return cu.GetErrorName(r, &s) == CUDA_SUCCESS && s != NULL ? s : "?";
}

static void fact(const char *name, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void fact(const char *name, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    printf("%-28s ", name);
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
}

static void hex_out(const unsigned char *b, size_t n, char *out) {
    for (size_t i = 0; i < n; i++) {
        sprintf(out + 2 * i, "%02x", b[i]);
    }
}

static int hex_in(const char *s, unsigned char *b, size_t n) {
    if (strlen(s) != 2 * n) {
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1) {
            return -1;
        }
        b[i] = (unsigned char)v;
    }
    return 0;
}

// The consumer of "reopen same context": opens the handle twice in one
// context and prints what the second open gave.
static int reopen_child(const char *hex) {
    CUipcMemHandle h;
    CUdevice dev;
    CUcontext ctx;
    if (hex_in(hex, (unsigned char *)h.reserved, sizeof(h.reserved)) != 0 ||
        cu.DeviceGet(&dev, 0) != CUDA_SUCCESS ||
        cu.CtxCreate(&ctx, 0, dev) != CUDA_SUCCESS) {
        return 2;
    }
    CUdeviceptr a = 0, b = 0;
    CUresult ra =
        cu.IpcOpenMemHandle(&a, h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
    CUresult rb =
        cu.IpcOpenMemHandle(&b, h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
    printf("%s %s %s\n", name_of(ra), name_of(rb),
           rb != CUDA_SUCCESS ? "-"
           : a == b           ? "same-pointer"
                              : "other-pointer");
    if (rb == CUDA_SUCCESS) {
        (void)cu.IpcCloseMemHandle(b);
    }
    if (ra == CUDA_SUCCESS) {
        (void)cu.IpcCloseMemHandle(a);
    }
    (void)cu.CtxDestroy(ctx);
    return 0;
}

static void ipc_facts(const char *self) {
    CUdeviceptr p = 0;
    if (cu.MemAlloc(&p, 1 << 20) != CUDA_SUCCESS) {
        fact("interior IPC handle", "(no allocation)");
        return;
    }
    CUipcMemHandle whole, inner;
    CUresult r1 = cu.IpcGetMemHandle(&whole, p);
    CUresult r2 = cu.IpcGetMemHandle(&inner, p + 4096);
    if (r1 != CUDA_SUCCESS || r2 != CUDA_SUCCESS) {
        fact("interior IPC handle", "%s / %s", name_of(r1), name_of(r2));
    } else {
        fact("interior IPC handle", "%s",
             memcmp(&whole, &inner, sizeof(whole)) == 0
                 ? "the whole allocation's"
                 : "a handle of its own");
    }
    char hex[2 * sizeof(whole.reserved) + 1];
    hex_out((const unsigned char *)whole.reserved, sizeof(whole.reserved), hex);
    fflush(stdout);
    int fds[2];
    if (r1 == CUDA_SUCCESS && pipe(fds) == 0) {
        pid_t pid = fork();
        if (pid == 0) {
            dup2(fds[1], 1);
            execl(self, self, "--reopen", hex, (char *)NULL);
            _exit(127);
        }
        close(fds[1]);
        char line[256] = "";
        ssize_t n = read(fds[0], line, sizeof(line) - 1);
        close(fds[0]);
        int status = 0;
        if (pid > 0) {
            waitpid(pid, &status, 0);
        }
        line[n > 0 ? n : 0] = '\0';
        line[strcspn(line, "\n")] = '\0';
        fact("reopen same context", "%s",
             line[0] != '\0' ? line : "(the consumer failed)");
    }
    (void)cu.MemFree(p);
}

static void error_facts(void) {
    const char *n = "unset", *s = "unset";
    CUresult rn = cu.GetErrorName((CUresult)12345, &n);
    CUresult rs = cu.GetErrorString((CUresult)12345, &s);
    fact("error name unknown", "%s, %s", name_of(rn), n ? n : "NULL");
    fact("error string unknown", "%s, %s", name_of(rs), s ? s : "NULL");
}

static void memory_facts(CUdevice dev) {
    CUdeviceptr p = 0;
    void *h = NULL;
    fact("oom cuMemAlloc", "%s", name_of(cu.MemAlloc(&p, (size_t)1 << 50)));
    fact("oom cuMemAllocHost", "%s",
         name_of(cu.MemAllocHost(&h, (size_t)1 << 50)));
    CUmemAllocationProp prop = {
        .type = CU_MEM_ALLOCATION_TYPE_PINNED,
        .location = {CU_MEM_LOCATION_TYPE_DEVICE, (int)dev}};
    size_t min = 0, rec = 0;
    CUresult rm = cu.Granularity(&min, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
    CUresult rr =
        cu.Granularity(&rec, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);
    fact("vmm granularity", "%s %zu / %s %zu", name_of(rm), min, name_of(rr),
         rec);
    if (rm == CUDA_SUCCESS && min != 0) {
        CUmemGenericAllocationHandle g = 0;
        size_t huge = ((size_t)1 << 50) / min * min;
        CUresult rc = cu.MemCreate(&g, huge, &prop, 0);
        fact("oom cuMemCreate", "%s", name_of(rc));
        if (rc == CUDA_SUCCESS) {
            (void)cu.MemRelease(g);
        }
    }
    static const size_t sizes[] = {1, 1000, 4097};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        CUdeviceptr base = 0;
        size_t got = 0;
        if (cu.MemAlloc(&p, sizes[i]) != CUDA_SUCCESS) {
            continue;
        }
        CUresult r = cu.MemGetAddressRange(&base, &got, p);
        char name[64];
        snprintf(name, sizeof(name), "address range %zu B", sizes[i]);
        fact(name, "%s %zu", name_of(r), got);
        if (i == 2) {
            r = cu.MemGetAddressRange(&base, &got, p + 100);
            fact("address range interior", "%s base%+lld %zu", name_of(r),
                 (long long)(base - p), got);
            fact("free interior", "%s", name_of(cu.MemFree(p + 100)));
        }
        (void)cu.MemFree(p);
    }
}

static void context_facts(CUdevice dev, CUcontext mine) {
    CUdeviceptr p = 0;
    CUcontext other = NULL;
    if (cu.MemAlloc(&p, 4096) == CUDA_SUCCESS &&
        cu.CtxCreate(&other, 0, dev) == CUDA_SUCCESS) {
        fact("free in another context", "%s", name_of(cu.MemFree(p)));
        (void)cu.CtxSetCurrent(mine);
        (void)cu.CtxDestroy(other);
    }
    (void)cu.CtxSetCurrent(mine);
    if (cu.MemAlloc(&p, 4096) == CUDA_SUCCESS) {
        (void)cu.CtxSetCurrent(NULL);
        CUresult r = cu.MemFree(p);
        fact("free with no context", "%s", name_of(r));
        (void)cu.CtxSetCurrent(mine);
        if (r != CUDA_SUCCESS) {
            (void)cu.MemFree(p);
        }
    }

    CUcontext primary = NULL;
    if (cu.PrimaryRetain(&primary, dev) != CUDA_SUCCESS) {
        fact("primary reset", "(no primary context)");
        return;
    }
    (void)cu.CtxSetCurrent(primary);
    CUdeviceptr q = 0;
    CUresult ra = cu.MemAlloc(&q, 4096);
    CUresult rr = cu.PrimaryReset(dev);
    unsigned flags = 0;
    int active = -1;
    (void)cu.PrimaryGetState(dev, &flags, &active);
    CUdeviceptr base = 0;
    size_t size = 0;
    (void)cu.CtxSetCurrent(mine);
    CUresult rq = ra == CUDA_SUCCESS ? cu.MemGetAddressRange(&base, &size, q)
                                     : CUDA_ERROR_UNKNOWN;
    fact("primary reset", "%s; after it active=%d flags=0x%x", name_of(rr),
         active, flags);
    fact("primary reset allocation", "%s", name_of(rq));
    fact("primary release after reset", "%s", name_of(cu.PrimaryRelease(dev)));
}

int main(int argc, char **argv) {
    const char *path;
    char why[512];
    if (driver_open("UMF_GPU_CUDA_LIB", "libcuda.so.1", "the CUDA driver",
                    symbols, sizeof(symbols) / sizeof(symbols[0]), &path, why,
                    sizeof(why)) == NULL) {
        fprintf(stderr, "umf-gpu-cuda-facts: %s\n", why);
        return 1;
    }
    CUdevice dev;
    CUcontext ctx;
    if (cu.Init(0) != CUDA_SUCCESS || cu.DeviceGet(&dev, 0) != CUDA_SUCCESS) {
        fprintf(stderr, "umf-gpu-cuda-facts: no device in %s\n", path);
        return 1;
    }
    if (argc == 3 && strcmp(argv[1], "--reopen") == 0) {
        return reopen_child(argv[2]);
    }
    if (argc != 1) {
        fprintf(stderr, "usage: umf-gpu-cuda-facts (driver: UMF_GPU_CUDA_LIB, "
                        "else libcuda.so.1)\n");
        return 2;
    }
    if (cu.CtxCreate(&ctx, 0, dev) != CUDA_SUCCESS) {
        fprintf(stderr, "umf-gpu-cuda-facts: no context\n");
        return 1;
    }
    error_facts();
    memory_facts(dev);
    ipc_facts("/proc/self/exe");
    context_facts(dev, ctx);
    (void)cu.CtxDestroy(ctx);
    return 0;
}

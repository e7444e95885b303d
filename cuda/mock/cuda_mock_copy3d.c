// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// 3D copies and copies with CUDA arrays: cuMemcpy3D_v2, cuMemcpy3DAsync_v2,
// cuMemcpy3DPeer(Async), cuMemcpy3DBatchAsync, the 1D array copies
// (cuMemcpyHtoA_v2, AtoH, DtoA, AtoD, AtoA and their Async forms), and the
// engine behind cuMemcpy2D* (cuda_mock_copy2d.c). Every one is a
// CUDA_MEMCPY3D_PEER, an operation of a stream (CUDA_MOCK_OP_COPY3D,
// cuda_mock_queue.c): its sides are resolved when it runs (an array through its
// layout, cuda_mock_array.c) and each slice is a copy of rows by the copy
// engine (cuda_mock_copy.c), which checks every row against the driver's
// memory.
//
// The structure is checked as cuda.h documents it: memory types (HOST,
// DEVICE, UNIFIED, ARRAY), LODs 0, a pitch of at least X + WidthInBytes
// and at most CU_DEVICE_ATTRIBUTE_MAX_PITCH and a slice height of at least
// Y + Height where there is more than one row or slice, and for an array
// an X and a width in whole elements, within its extents. The 1D array
// copies want a 1D array ("Copies from host memory to a 1D CUDA array");
// AtoA wants elements of one size, AtoD a naturally aligned destination.

#include "cuda_mock_array.h"
#include "cuda_mock_copy.h"
#include "cuda_mock_core.h"
#include "cuda_mock_queue.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// The largest pitch (CU_DEVICE_ATTRIBUTE_MAX_PITCH, cuda_mock_device.c).
#define MAX_PITCH 2147483647u

typedef struct side_t {
    uintptr_t start;    // the first byte of the copy
    size_t pitch;       // between rows
    size_t slice_pitch; // between slices
    CUmemorytype type;  // DEVICE: must be memory of the driver
} side_t;

typedef struct side_args_t {
    const char *what; // "source", "destination"
    CUmemorytype type;
    const void *host;
    CUdeviceptr device;
    CUarray array;
    size_t x, y, z, lod, pitch, height;
} side_args_t;

static bool add(uintptr_t a, uintptr_t b, uintptr_t *out) {
    return !__builtin_add_overflow(a, b, out);
}

static bool mul(size_t a, size_t b, size_t *out) {
    return !__builtin_mul_overflow(a, b, out);
}

static CUresult resolve(const side_args_t *a, size_t width, size_t height,
                        size_t depth, const char *call, side_t *out) {
    if (a->lod != 0) {
        UMF_MOCK_LOG_ERROR("%s: %s LOD %zu (must be 0)", call, a->what, a->lod);
        return CUDA_ERROR_INVALID_VALUE;
    }
    uintptr_t base;
    size_t pitch, rows; // rows per slice
    switch (a->type) {
    case CU_MEMORYTYPE_HOST:
    case CU_MEMORYTYPE_DEVICE:
    case CU_MEMORYTYPE_UNIFIED:
        base = a->type == CU_MEMORYTYPE_HOST ? (uintptr_t)a->host
                                             : (uintptr_t)a->device;
        pitch = a->pitch;
        rows = a->height;
        if (base == 0) {
            UMF_MOCK_LOG_ERROR("%s: %s is NULL", call, a->what);
            return CUDA_ERROR_INVALID_VALUE;
        }
        if (pitch > MAX_PITCH ||
            ((height > 1 || depth > 1) &&
             (a->x > SIZE_MAX - width || pitch < a->x + width)) ||
            (depth > 1 && (a->y > SIZE_MAX - height || rows < a->y + height))) {
            UMF_MOCK_LOG_ERROR("%s: %s pitch %zu, height %zu for X %zu, Y %zu "
                               "and %zu x %zu x %zu bytes",
                               call, a->what, pitch, rows, a->x, a->y, width,
                               height, depth);
            return CUDA_ERROR_INVALID_VALUE;
        }
        break;
    case CU_MEMORYTYPE_ARRAY: {
        cuda_mock_array_layout_t l;
        if (!cuda_mock_array_layout(a->array, call, &l)) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        if (a->x % l.elem != 0 || width % l.elem != 0 || a->x > l.width_bytes ||
            width > l.width_bytes - a->x || a->y > l.rows ||
            height > l.rows - a->y || a->z > l.slices ||
            depth > l.slices - a->z) {
            UMF_MOCK_LOG_ERROR("%s: %s array of %zu x %zu x %zu elements of %u "
                               "bytes: %zu x %zu x %zu bytes at (%zu, %zu, "
                               "%zu) are not whole elements inside it",
                               call, a->what, l.width_bytes / l.elem, l.rows,
                               l.slices, l.elem, width, height, depth, a->x,
                               a->y, a->z);
            return CUDA_ERROR_INVALID_VALUE;
        }
        base = l.base;
        pitch = l.pitch;
        rows = l.rows;
        break;
    }
    default:
        UMF_MOCK_LOG_ERROR("%s: %s memory type %d is not a CUmemorytype", call,
                           a->what, (int)a->type);
        return CUDA_ERROR_INVALID_VALUE;
    }
    // start = base + (z * rows + y) * pitch + x, without overflow.
    size_t zr, row, off;
    if (!mul(a->z, rows, &zr) || !add(zr, a->y, &row) ||
        !mul(row, pitch, &off) || !add(off, a->x, &off) ||
        !add(base, off, &out->start) || !mul(rows, pitch, &out->slice_pitch)) {
        UMF_MOCK_LOG_ERROR("%s: %s offset overflows", call, a->what);
        return CUDA_ERROR_INVALID_VALUE;
    }
    out->pitch = pitch;
    out->type = a->type == CU_MEMORYTYPE_ARRAY ? CU_MEMORYTYPE_DEVICE : a->type;
    return CUDA_SUCCESS;
}

static void args_of(const CUDA_MEMCPY3D_PEER *p, side_args_t *src,
                    side_args_t *dst) {
    *src =
        (side_args_t){"source",    p->srcMemoryType, p->srcHost,  p->srcDevice,
                      p->srcArray, p->srcXInBytes,   p->srcY,     p->srcZ,
                      p->srcLOD,   p->srcPitch,      p->srcHeight};
    *dst = (side_args_t){"destination", p->dstMemoryType, p->dstHost,
                         p->dstDevice,  p->dstArray,      p->dstXInBytes,
                         p->dstY,       p->dstZ,          p->dstLOD,
                         p->dstPitch,   p->dstHeight};
}

// Every slice's rows through the copy engine (`copy`: or only its checks).
static CUresult slices(const CUDA_MEMCPY3D_PEER *p, int dst_device,
                       int src_device, bool copy, const char *call) {
    size_t w = p->WidthInBytes, h = p->Height, d = p->Depth;
    if (w == 0 || h == 0 || d == 0) {
        return CUDA_SUCCESS;
    }
    side_args_t sa, da;
    args_of(p, &sa, &da);
    side_t src, dst;
    CUresult res = resolve(&sa, w, h, d, call, &src);
    if (res == CUDA_SUCCESS) {
        res = resolve(&da, w, h, d, call, &dst);
    }
    unsigned sides =
        (dst.type == CU_MEMORYTYPE_DEVICE ? CUDA_MOCK_DST_DEVICE : 0u) |
        (src.type == CU_MEMORYTYPE_DEVICE ? CUDA_MOCK_SRC_DEVICE : 0u);
    for (size_t z = 0; z < d && res == CUDA_SUCCESS; z++) {
        uintptr_t s_at, d_at;
        size_t s_off, d_off;
        if (!mul(z, src.slice_pitch, &s_off) ||
            !mul(z, dst.slice_pitch, &d_off) || !add(src.start, s_off, &s_at) ||
            !add(dst.start, d_off, &d_at)) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        res = copy
                  ? cuda_mock_copy_rows(dst_device, src_device, d_at, dst.pitch,
                                        s_at, src.pitch, w, h, sides, call)
                  : cuda_mock_copy_rows_check(dst_device, src_device, d_at,
                                              dst.pitch, s_at, src.pitch, w, h,
                                              sides, call);
    }
    return res;
}

CUresult cuda_mock_copy3d_run(const CUDA_MEMCPY3D_PEER *p, int dst_device,
                              int src_device, const char *call) {
    return slices(p, dst_device, src_device, true, call);
}

CUresult cuda_mock_copy3d_check(const CUDA_MEMCPY3D_PEER *p, int dst_device,
                                int src_device, const char *call) {
    return slices(p, dst_device, src_device, false, call);
}

// Enqueues the copy `p`: on the default stream of `ctx` and complete on
// return when `stream` is NULL, else on *stream. The devices that write and
// read are those of the contexts (an array's: its own).
void cuda_mock_copy3d_devices(const CUDA_MEMCPY3D_PEER *p, int dst_default,
                              int src_default, int *dst, int *src) {
    cuda_mock_array_layout_t l;
    *dst = dst_default;
    *src = src_default;
    if (p->dstMemoryType == CU_MEMORYTYPE_ARRAY &&
        cuda_mock_array_layout(p->dstArray, "copy", &l)) {
        *dst = l.device;
    }
    if (p->srcMemoryType == CU_MEMORYTYPE_ARRAY &&
        cuda_mock_array_layout(p->srcArray, "copy", &l)) {
        *src = l.device;
    }
}

static CUresult enqueue(const CUDA_MEMCPY3D_PEER *p, cuda_mock_ctx_t *dst_ctx,
                        cuda_mock_ctx_t *src_ctx, cuda_mock_ctx_t *ctx,
                        const cuda_mock_stream_ref_t *stream,
                        const char *call) {
    cuda_mock_op_t op = {.kind = CUDA_MOCK_OP_COPY3D, .call = call};
    op.u.copy3d.p = *p;
    cuda_mock_copy3d_devices(p, cuda_mock_ctx_device(dst_ctx),
                             cuda_mock_ctx_device(src_ctx),
                             &op.u.copy3d.dst_device, &op.u.copy3d.src_device);
    return stream == NULL ? cuda_mock_order_sync(ctx, &op)
                          : cuda_mock_order_submit(stream, &op);
}

CUresult cuda_mock_copy3d_enqueue(const CUDA_MEMCPY3D_PEER *p, bool sync,
                                  CUstream stream, const char *call) {
    if (p == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_stream_ref_t s;
    CUresult res = sync ? cuda_mock_ctx_current(&s.ctx)
                        : cuda_mock_stream_get(stream, call, &s);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    return enqueue(p, s.ctx, s.ctx, s.ctx, sync ? NULL : &s, call);
}

// CUDA_MEMCPY3D and CUDA_MEMCPY3D_PEER differ only where the former has
// two reserved pointers (which must be NULL).
static CUresult from_3d(const CUDA_MEMCPY3D *c, CUDA_MEMCPY3D_PEER *p,
                        const char *call) {
    _Static_assert(sizeof(CUDA_MEMCPY3D) == sizeof(CUDA_MEMCPY3D_PEER),
                   "CUDA_MEMCPY3D and CUDA_MEMCPY3D_PEER differ");
    if (c == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (c->reserved0 != NULL || c->reserved1 != NULL) {
        UMF_MOCK_LOG_ERROR("%s: reserved0 and reserved1 must be NULL", call);
        return CUDA_ERROR_INVALID_VALUE;
    }
    memcpy(p, c, sizeof(*p));
    return CUDA_SUCCESS;
}

static CUresult copy3d(const CUDA_MEMCPY3D *c, bool sync, CUstream stream,
                       const char *call) {
    CUDA_MEMCPY3D_PEER p;
    CUresult res = from_3d(c, &p, call);
    return res == CUDA_SUCCESS
               ? cuda_mock_copy3d_enqueue(&p, sync, stream, call)
               : res;
}

CUDA_MOCK_API CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *pCopy) {
    CUDA_MOCK_ENTER(cuMemcpy3D_v2);
    return copy3d(pCopy, true, NULL, "cuMemcpy3D_v2");
}

CUDA_MOCK_API CUresult cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D *pCopy) {
    CUDA_MOCK_ENTER(cuMemcpy3D_v2_ptds);
    return copy3d(pCopy, true, NULL, "cuMemcpy3D_v2_ptds");
}

CUDA_MOCK_API CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *pCopy,
                                          CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpy3DAsync_v2);
    return copy3d(pCopy, false, hStream, "cuMemcpy3DAsync_v2");
}

CUDA_MOCK_API CUresult cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D *pCopy,
                                               CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpy3DAsync_v2_ptsz);
    return copy3d(pCopy, false, hStream, "cuMemcpy3DAsync_v2_ptsz");
}

// Between contexts: each non-array side names its live context ("ignored
// with srcMemoryType CU_MEMORYTYPE_ARRAY"). The synchronous form is ordered
// in the destination's default stream (else the source's).
static CUresult peer(const CUDA_MEMCPY3D_PEER *p, bool sync, CUstream stream,
                     const char *call) {
    if (p == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *d = NULL, *sc = NULL;
    CUresult res = CUDA_SUCCESS;
    if (p->dstMemoryType != CU_MEMORYTYPE_ARRAY) {
        res = cuda_mock_ctx_live(p->dstContext, call, &d);
    }
    if (res == CUDA_SUCCESS && p->srcMemoryType != CU_MEMORYTYPE_ARRAY) {
        res = cuda_mock_ctx_live(p->srcContext, call, &sc);
    }
    cuda_mock_stream_ref_t s = {0};
    if (res == CUDA_SUCCESS && !sync) {
        res = cuda_mock_stream_get(stream, call, &s);
    }
    if (res == CUDA_SUCCESS && d == NULL && sc == NULL) {
        // Two arrays: in the current context.
        res = cuda_mock_ctx_current(&d);
    }
    if (res != CUDA_SUCCESS) {
        return res;
    }
    d = d != NULL ? d : sc;
    sc = sc != NULL ? sc : d;
    return enqueue(p, d, sc, d, sync ? NULL : &s, call);
}

CUDA_MOCK_API CUresult cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER *pCopy) {
    CUDA_MOCK_ENTER(cuMemcpy3DPeer);
    return peer(pCopy, true, NULL, "cuMemcpy3DPeer");
}

CUDA_MOCK_API CUresult cuMemcpy3DPeer_ptds(const CUDA_MEMCPY3D_PEER *pCopy) {
    CUDA_MOCK_ENTER(cuMemcpy3DPeer_ptds);
    return peer(pCopy, true, NULL, "cuMemcpy3DPeer_ptds");
}

CUDA_MOCK_API CUresult cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER *pCopy,
                                           CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpy3DPeerAsync);
    return peer(pCopy, false, hStream, "cuMemcpy3DPeerAsync");
}

CUDA_MOCK_API CUresult cuMemcpy3DPeerAsync_ptsz(const CUDA_MEMCPY3D_PEER *pCopy,
                                                CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpy3DPeerAsync_ptsz);
    return peer(pCopy, false, hStream, "cuMemcpy3DPeerAsync_ptsz");
}

// ---------------------------------------------------------------------------
// The 1D array copies: a 3D copy of one row, at a byte offset of a 1D
// array.

typedef struct linear_side_t {
    CUmemorytype type;
    const void *host;
    CUdeviceptr device;
    CUarray array;
    size_t offset;
} linear_side_t;

// The array of a side, which must be 1D: its element size.
static CUresult array_side(const linear_side_t *s, const char *call,
                           unsigned *elem) {
    cuda_mock_array_layout_t l;
    if (!cuda_mock_array_layout(s->array, call, &l)) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    if (!l.one_dimensional) {
        UMF_MOCK_LOG_ERROR("%s: array %p is not a 1D array", call,
                           (void *)s->array);
        return CUDA_ERROR_INVALID_VALUE;
    }
    *elem = l.elem;
    return CUDA_SUCCESS;
}

static CUresult linear(linear_side_t dst, linear_side_t src, size_t n,
                       bool sync, CUstream stream, const char *call) {
    unsigned delem = 0, selem = 0;
    CUresult res = CUDA_SUCCESS;
    if (dst.type == CU_MEMORYTYPE_ARRAY) {
        res = array_side(&dst, call, &delem);
    }
    if (res == CUDA_SUCCESS && src.type == CU_MEMORYTYPE_ARRAY) {
        res = array_side(&src, call, &selem);
    }
    if (res != CUDA_SUCCESS) {
        return res;
    }
    // AtoA: "the elements must be the same size"; AtoD: a destination
    // "naturally aligned with the CUDA array elements".
    if ((delem != 0 && selem != 0 && delem != selem) ||
        (selem != 0 && dst.type == CU_MEMORYTYPE_DEVICE &&
         dst.device % selem != 0)) {
        UMF_MOCK_LOG_ERROR("%s: elements of %u and %u bytes, or a destination "
                           "not aligned to them",
                           call, delem, selem);
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MEMCPY3D_PEER p = {0};
    p.dstMemoryType = dst.type;
    p.dstHost = (void *)(uintptr_t)dst.host;
    p.dstDevice = dst.device;
    p.dstArray = dst.array;
    p.dstXInBytes = dst.offset;
    p.srcMemoryType = src.type;
    p.srcHost = src.host;
    p.srcDevice = src.device;
    p.srcArray = src.array;
    p.srcXInBytes = src.offset;
    p.WidthInBytes = n;
    p.Height = 1;
    p.Depth = 1;
    return cuda_mock_copy3d_enqueue(&p, sync, stream, call);
}

// A side of a 1D array copy (the offset is an array's only).
#define HOST_SIDE(p)                                                           \
    (linear_side_t) {                                                          \
        CU_MEMORYTYPE_HOST, (p), 0, NULL, 0                                    \
    }
#define DEVICE_SIDE(d)                                                         \
    (linear_side_t) {                                                          \
        CU_MEMORYTYPE_DEVICE, NULL, (d), NULL, 0                               \
    }
#define ARRAY_SIDE(a, off)                                                     \
    (linear_side_t) {                                                          \
        CU_MEMORYTYPE_ARRAY, NULL, 0, (a), (off)                               \
    }

CUDA_MOCK_API CUresult cuMemcpyHtoA_v2(CUarray dstArray, size_t dstOffset,
                                       const void *srcHost, size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyHtoA_v2);
    return linear(ARRAY_SIDE(dstArray, dstOffset), HOST_SIDE(srcHost),
                  ByteCount, true, NULL, "cuMemcpyHtoA_v2");
}

CUDA_MOCK_API CUresult cuMemcpyHtoA_v2_ptds(CUarray dstArray, size_t dstOffset,
                                            const void *srcHost,
                                            size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyHtoA_v2_ptds);
    return linear(ARRAY_SIDE(dstArray, dstOffset), HOST_SIDE(srcHost),
                  ByteCount, true, NULL, "cuMemcpyHtoA_v2_ptds");
}

CUDA_MOCK_API CUresult cuMemcpyAtoH_v2(void *dstHost, CUarray srcArray,
                                       size_t srcOffset, size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyAtoH_v2);
    return linear(HOST_SIDE(dstHost), ARRAY_SIDE(srcArray, srcOffset),
                  ByteCount, true, NULL, "cuMemcpyAtoH_v2");
}

CUDA_MOCK_API CUresult cuMemcpyAtoH_v2_ptds(void *dstHost, CUarray srcArray,
                                            size_t srcOffset,
                                            size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyAtoH_v2_ptds);
    return linear(HOST_SIDE(dstHost), ARRAY_SIDE(srcArray, srcOffset),
                  ByteCount, true, NULL, "cuMemcpyAtoH_v2_ptds");
}

CUDA_MOCK_API CUresult cuMemcpyDtoA_v2(CUarray dstArray, size_t dstOffset,
                                       CUdeviceptr srcDevice,
                                       size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyDtoA_v2);
    return linear(ARRAY_SIDE(dstArray, dstOffset), DEVICE_SIDE(srcDevice),
                  ByteCount, true, NULL, "cuMemcpyDtoA_v2");
}

CUDA_MOCK_API CUresult cuMemcpyDtoA_v2_ptds(CUarray dstArray, size_t dstOffset,
                                            CUdeviceptr srcDevice,
                                            size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyDtoA_v2_ptds);
    return linear(ARRAY_SIDE(dstArray, dstOffset), DEVICE_SIDE(srcDevice),
                  ByteCount, true, NULL, "cuMemcpyDtoA_v2_ptds");
}

CUDA_MOCK_API CUresult cuMemcpyAtoD_v2(CUdeviceptr dstDevice, CUarray srcArray,
                                       size_t srcOffset, size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyAtoD_v2);
    return linear(DEVICE_SIDE(dstDevice), ARRAY_SIDE(srcArray, srcOffset),
                  ByteCount, true, NULL, "cuMemcpyAtoD_v2");
}

CUDA_MOCK_API CUresult cuMemcpyAtoD_v2_ptds(CUdeviceptr dstDevice,
                                            CUarray srcArray, size_t srcOffset,
                                            size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyAtoD_v2_ptds);
    return linear(DEVICE_SIDE(dstDevice), ARRAY_SIDE(srcArray, srcOffset),
                  ByteCount, true, NULL, "cuMemcpyAtoD_v2_ptds");
}

CUDA_MOCK_API CUresult cuMemcpyAtoA_v2(CUarray dstArray, size_t dstOffset,
                                       CUarray srcArray, size_t srcOffset,
                                       size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyAtoA_v2);
    return linear(ARRAY_SIDE(dstArray, dstOffset),
                  ARRAY_SIDE(srcArray, srcOffset), ByteCount, true, NULL,
                  "cuMemcpyAtoA_v2");
}

CUDA_MOCK_API CUresult cuMemcpyAtoA_v2_ptds(CUarray dstArray, size_t dstOffset,
                                            CUarray srcArray, size_t srcOffset,
                                            size_t ByteCount) {
    CUDA_MOCK_ENTER(cuMemcpyAtoA_v2_ptds);
    return linear(ARRAY_SIDE(dstArray, dstOffset),
                  ARRAY_SIDE(srcArray, srcOffset), ByteCount, true, NULL,
                  "cuMemcpyAtoA_v2_ptds");
}

CUDA_MOCK_API CUresult cuMemcpyHtoAAsync_v2(CUarray dstArray, size_t dstOffset,
                                            const void *srcHost,
                                            size_t ByteCount,
                                            CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpyHtoAAsync_v2);
    return linear(ARRAY_SIDE(dstArray, dstOffset), HOST_SIDE(srcHost),
                  ByteCount, false, hStream, "cuMemcpyHtoAAsync_v2");
}

CUDA_MOCK_API CUresult cuMemcpyHtoAAsync_v2_ptsz(CUarray dstArray,
                                                 size_t dstOffset,
                                                 const void *srcHost,
                                                 size_t ByteCount,
                                                 CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpyHtoAAsync_v2_ptsz);
    return linear(ARRAY_SIDE(dstArray, dstOffset), HOST_SIDE(srcHost),
                  ByteCount, false, hStream, "cuMemcpyHtoAAsync_v2_ptsz");
}

CUDA_MOCK_API CUresult cuMemcpyAtoHAsync_v2(void *dstHost, CUarray srcArray,
                                            size_t srcOffset, size_t ByteCount,
                                            CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpyAtoHAsync_v2);
    return linear(HOST_SIDE(dstHost), ARRAY_SIDE(srcArray, srcOffset),
                  ByteCount, false, hStream, "cuMemcpyAtoHAsync_v2");
}

CUDA_MOCK_API CUresult cuMemcpyAtoHAsync_v2_ptsz(void *dstHost,
                                                 CUarray srcArray,
                                                 size_t srcOffset,
                                                 size_t ByteCount,
                                                 CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpyAtoHAsync_v2_ptsz);
    return linear(HOST_SIDE(dstHost), ARRAY_SIDE(srcArray, srcOffset),
                  ByteCount, false, hStream, "cuMemcpyAtoHAsync_v2_ptsz");
}

// ---------------------------------------------------------------------------
// Batches of 3D copies (cuMemcpy3DBatchAsync: CUDA 12.8's with failIdx, and
// CUDA 13's _v2 without). Each operation becomes a CUDA_MEMCPY3D_PEER: a
// pointer operand is unified memory (host or the driver's), its row length
// and layer height in elements (0: packed to the extent), an array operand
// its offset in elements; the element size is an array's (1 between two
// pointers; two arrays' must match). The batch is checked whole, then its
// copies are enqueued in order, which is one of the orders cuda.h allows
// ("copies within a batch are not guaranteed to execute in any specific
// order").

static CUresult batch_elem(const CUmemcpy3DOperand *o, const char *call,
                           unsigned *elem) {
    if (o->type == CU_MEMCPY_OPERAND_TYPE_POINTER) {
        return CUDA_SUCCESS;
    }
    if (o->type != CU_MEMCPY_OPERAND_TYPE_ARRAY) {
        UMF_MOCK_LOG_ERROR("%s: operand type %d is not a "
                           "CUmemcpy3DOperandType",
                           call, (int)o->type);
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_array_layout_t l;
    if (!cuda_mock_array_layout(o->op.array.array, call, &l)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (*elem != 0 && *elem != l.elem) {
        UMF_MOCK_LOG_ERROR("%s: arrays of elements of %u and %u bytes", call,
                           *elem, l.elem);
        return CUDA_ERROR_INVALID_VALUE;
    }
    *elem = l.elem;
    return CUDA_SUCCESS;
}

// One operand as a side of `p` (dst: the destination).
static bool batch_side(const CUmemcpy3DOperand *o, const CUextent3D *e,
                       unsigned elem, bool dst, CUDA_MEMCPY3D_PEER *p) {
    size_t x, pitch = 0, height = 0;
    CUmemorytype type;
    CUdeviceptr ptr = 0;
    CUarray array = NULL;
    size_t y = 0, z = 0;
    if (o->type == CU_MEMCPY_OPERAND_TYPE_POINTER) {
        size_t row = o->op.ptr.rowLength, layer = o->op.ptr.layerHeight;
        if ((row != 0 && row < e->width) || (layer != 0 && layer < e->height) ||
            !mul(row != 0 ? row : e->width, elem, &pitch)) {
            return false;
        }
        type = CU_MEMORYTYPE_UNIFIED;
        ptr = o->op.ptr.ptr;
        height = layer != 0 ? layer : e->height;
        x = 0;
    } else {
        type = CU_MEMORYTYPE_ARRAY;
        array = o->op.array.array;
        if (!mul(o->op.array.offset.x, elem, &x)) {
            return false;
        }
        y = o->op.array.offset.y;
        z = o->op.array.offset.z;
    }
    if (dst) {
        p->dstMemoryType = type;
        p->dstDevice = ptr;
        p->dstArray = array;
        p->dstXInBytes = x;
        p->dstY = y;
        p->dstZ = z;
        p->dstPitch = pitch;
        p->dstHeight = height;
    } else {
        p->srcMemoryType = type;
        p->srcDevice = ptr;
        p->srcArray = array;
        p->srcXInBytes = x;
        p->srcY = y;
        p->srcZ = z;
        p->srcPitch = pitch;
        p->srcHeight = height;
    }
    return true;
}

static CUresult batch_op(const CUDA_MEMCPY3D_BATCH_OP *o, CUDA_MEMCPY3D_PEER *p,
                         const char *call) {
    const CUextent3D *e = &o->extent;
    if (e->width == 0 || e->height == 0 || e->depth == 0 ||
        o->srcAccessOrder <= CU_MEMCPY_SRC_ACCESS_ORDER_INVALID ||
        o->srcAccessOrder > CU_MEMCPY_SRC_ACCESS_ORDER_ANY ||
        (o->flags & ~(unsigned)CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE) !=
            0) {
        UMF_MOCK_LOG_ERROR("%s: an empty extent, a source access order %d or "
                           "flags %#x",
                           call, (int)o->srcAccessOrder, o->flags);
        return CUDA_ERROR_INVALID_VALUE;
    }
    unsigned elem = 0;
    CUresult res = batch_elem(&o->src, call, &elem);
    if (res == CUDA_SUCCESS) {
        res = batch_elem(&o->dst, call, &elem);
    }
    if (res != CUDA_SUCCESS) {
        return res;
    }
    elem = elem != 0 ? elem : 1;
    memset(p, 0, sizeof(*p));
    if (!batch_side(&o->src, e, elem, false, p) ||
        !batch_side(&o->dst, e, elem, true, p) ||
        !mul(e->width, elem, &p->WidthInBytes)) {
        UMF_MOCK_LOG_ERROR("%s: a row length or layer height shorter than the "
                           "extent, or an extent that overflows",
                           call);
        return CUDA_ERROR_INVALID_VALUE;
    }
    p->Height = e->height;
    p->Depth = e->depth;
    return CUDA_SUCCESS;
}

static CUresult batch3d(size_t n, const CUDA_MEMCPY3D_BATCH_OP *ops,
                        size_t *fail, unsigned long long flags, CUstream stream,
                        bool per_thread, const char *call) {
    if (fail != NULL) {
        *fail = SIZE_MAX;
    }
    // "Must not be default NULL stream": the legacy stream.
    bool legacy = stream == CU_STREAM_LEGACY || (stream == NULL && !per_thread);
    if (ops == NULL || n == 0 || flags != 0 || legacy) {
        UMF_MOCK_LOG_ERROR("%s: no operations, flags %#llx (must be 0), or "
                           "the legacy default stream",
                           call, flags);
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_stream_ref_t s;
    CUresult res = cuda_mock_stream_get(stream, call, &s);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    CUDA_MEMCPY3D_PEER *ps = malloc(n * sizeof(*ps));
    if (ps == NULL) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    int device = cuda_mock_ctx_device(s.ctx);
    size_t i = 0;
    for (; i < n && res == CUDA_SUCCESS; i++) {
        res = batch_op(&ops[i], &ps[i], call);
        if (res == CUDA_SUCCESS) {
            int dd, sd;
            cuda_mock_copy3d_devices(&ps[i], device, device, &dd, &sd);
            res = cuda_mock_copy3d_check(&ps[i], dd, sd, call);
        }
    }
    for (size_t k = 0; k < n && res == CUDA_SUCCESS; k++) {
        i = k + 1;
        res = enqueue(&ps[k], s.ctx, s.ctx, s.ctx, &s, call);
    }
    if (res != CUDA_SUCCESS && fail != NULL) {
        *fail = i - 1;
    }
    free(ps);
    return res;
}

CUDA_MOCK_API CUresult cuMemcpy3DBatchAsync(size_t numOps,
                                            CUDA_MEMCPY3D_BATCH_OP *opList,
                                            size_t *failIdx,
                                            unsigned long long flags,
                                            CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpy3DBatchAsync);
    return batch3d(numOps, opList, failIdx, flags, hStream, false,
                   "cuMemcpy3DBatchAsync");
}

CUDA_MOCK_API CUresult cuMemcpy3DBatchAsync_ptsz(size_t numOps,
                                                 CUDA_MEMCPY3D_BATCH_OP *opList,
                                                 size_t *failIdx,
                                                 unsigned long long flags,
                                                 CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpy3DBatchAsync_ptsz);
    return batch3d(numOps, opList, failIdx, flags, hStream, true,
                   "cuMemcpy3DBatchAsync_ptsz");
}

CUDA_MOCK_API CUresult cuMemcpy3DBatchAsync_v2(size_t numOps,
                                               CUDA_MEMCPY3D_BATCH_OP *opList,
                                               unsigned long long flags,
                                               CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpy3DBatchAsync_v2);
    return batch3d(numOps, opList, NULL, flags, hStream, false,
                   "cuMemcpy3DBatchAsync_v2");
}

CUDA_MOCK_API CUresult
cuMemcpy3DBatchAsync_v2_ptsz(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList,
                             unsigned long long flags, CUstream hStream) {
    CUDA_MOCK_ENTER(cuMemcpy3DBatchAsync_v2_ptsz);
    return batch3d(numOps, opList, NULL, flags, hStream, true,
                   "cuMemcpy3DBatchAsync_v2_ptsz");
}

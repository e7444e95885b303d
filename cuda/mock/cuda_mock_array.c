// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// CUDA arrays as memory: cuArrayCreate_v2 and cuArray3DCreate_v2 make an
// array of the current context, whose elements live in one device
// allocation of the core (counted against the device, gone with the
// context), laid out densely: rows of Width elements, Height rows (1 for a
// 1D array) per slice, Depth slices (1 unless 3D, layered or a cubemap).
// No texture or surface ever reads an array here, so a layout of rows is
// as good as a GPU's opaque one: every copy to and from an array
// (cuda_mock_copy3d.c) goes through this module's layout.
//
// Checked as cuda.h documents: the extents of each kind of array against
// the device model's texture and surface limits, the flags, and the
// formats with their channel counts (1, 2 or 4; the normalized formats
// carry their own). Block-compressed and YUV formats, sparse arrays and
// arrays with deferred mapping are refused (CUDA_ERROR_NOT_SUPPORTED: the
// device model reports neither sparse nor deferred-mapping arrays), so no
// array is multi-planar or sparse, and the queries about those refuse
// every array (CUDA_ERROR_INVALID_VALUE, as for a GPU's plain arrays).

#include "cuda_mock_array.h"
#include "cuda_mock_core.h"
#include "cuda_mock_queue.h"

#include <string.h>

#define KNOWN_FLAGS                                                            \
    ((unsigned)(CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST |             \
                CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_TEXTURE_GATHER |           \
                CUDA_ARRAY3D_DEPTH_TEXTURE | CUDA_ARRAY3D_COLOR_ATTACHMENT |   \
                CUDA_ARRAY3D_SPARSE | CUDA_ARRAY3D_DEFERRED_MAPPING |          \
                CUDA_ARRAY3D_VIDEO_ENCODE_DECODE))

struct CUarray_st {
    cuda_mock_slot_t slot;
    cuda_mock_ctx_ref_t ctx;
    CUDA_ARRAY3D_DESCRIPTOR desc; // as made
    cuda_mock_array_layout_t layout;
};

static cuda_mock_table_t arrays =
    CUDA_MOCK_TABLE("CUDA array", struct CUarray_st, CUDA_MOCK_MAX_ARRAYS,
                    CUDA_MOCK_OBJECT_ARRAY);

static struct CUarray_st *array_of(CUarray a, const char *call) {
    struct CUarray_st *arr = cuda_mock_table_get(&arrays, a);
    if (arr == NULL || !cuda_mock_ctx_ref_alive(arr->ctx)) {
        UMF_MOCK_LOG_ERROR("%s: %p is not a CUDA array of this driver, or was "
                           "destroyed (with its context?)",
                           call, (void *)a);
        return NULL;
    }
    return arr;
}

bool cuda_mock_array_layout(CUarray a, const char *call,
                            cuda_mock_array_layout_t *out) {
    const struct CUarray_st *arr = array_of(a, call);
    if (arr == NULL) {
        return false;
    }
    *out = arr->layout;
    return true;
}

// Bytes per element of `format` with `channels` channels; 0 when the
// pair is not an array format (*unsupported: a format the emulation does
// not make arrays of).
static unsigned element_size(CUarray_format format, unsigned channels,
                             bool *unsupported) {
    *unsupported = false;
    unsigned bytes, fixed = 0; // fixed: the channels the format carries
    switch (format) {
    case CU_AD_FORMAT_UNSIGNED_INT8:
    case CU_AD_FORMAT_SIGNED_INT8:
        bytes = 1;
        break;
    case CU_AD_FORMAT_UNSIGNED_INT16:
    case CU_AD_FORMAT_SIGNED_INT16:
    case CU_AD_FORMAT_HALF:
        bytes = 2;
        break;
    case CU_AD_FORMAT_UNSIGNED_INT32:
    case CU_AD_FORMAT_SIGNED_INT32:
    case CU_AD_FORMAT_FLOAT:
        bytes = 4;
        break;
    case CU_AD_FORMAT_UNORM_INT8X1:
    case CU_AD_FORMAT_SNORM_INT8X1:
        bytes = 1, fixed = 1;
        break;
    case CU_AD_FORMAT_UNORM_INT8X2:
    case CU_AD_FORMAT_SNORM_INT8X2:
        bytes = 1, fixed = 2;
        break;
    case CU_AD_FORMAT_UNORM_INT8X4:
    case CU_AD_FORMAT_SNORM_INT8X4:
        bytes = 1, fixed = 4;
        break;
    case CU_AD_FORMAT_UNORM_INT16X1:
    case CU_AD_FORMAT_SNORM_INT16X1:
        bytes = 2, fixed = 1;
        break;
    case CU_AD_FORMAT_UNORM_INT16X2:
    case CU_AD_FORMAT_SNORM_INT16X2:
        bytes = 2, fixed = 2;
        break;
    case CU_AD_FORMAT_UNORM_INT16X4:
    case CU_AD_FORMAT_SNORM_INT16X4:
        bytes = 2, fixed = 4;
        break;
    case CU_AD_FORMAT_UNORM_INT_101010_2:
        // Four channels in one 32-bit element.
        return channels == 4 ? 4 : 0;
    case CU_AD_FORMAT_NV12:
    case CU_AD_FORMAT_BC1_UNORM:
    case CU_AD_FORMAT_BC1_UNORM_SRGB:
    case CU_AD_FORMAT_BC2_UNORM:
    case CU_AD_FORMAT_BC2_UNORM_SRGB:
    case CU_AD_FORMAT_BC3_UNORM:
    case CU_AD_FORMAT_BC3_UNORM_SRGB:
    case CU_AD_FORMAT_BC4_UNORM:
    case CU_AD_FORMAT_BC4_SNORM:
    case CU_AD_FORMAT_BC5_UNORM:
    case CU_AD_FORMAT_BC5_SNORM:
    case CU_AD_FORMAT_BC6H_UF16:
    case CU_AD_FORMAT_BC6H_SF16:
    case CU_AD_FORMAT_BC7_UNORM:
    case CU_AD_FORMAT_BC7_UNORM_SRGB:
    case CU_AD_FORMAT_P010:
    case CU_AD_FORMAT_P016:
    case CU_AD_FORMAT_NV16:
    case CU_AD_FORMAT_P210:
    case CU_AD_FORMAT_P216:
    case CU_AD_FORMAT_YUY2:
    case CU_AD_FORMAT_Y210:
    case CU_AD_FORMAT_Y216:
    case CU_AD_FORMAT_AYUV:
    case CU_AD_FORMAT_Y410:
    case CU_AD_FORMAT_Y416:
    case CU_AD_FORMAT_Y444_PLANAR8:
    case CU_AD_FORMAT_Y444_PLANAR10:
    case CU_AD_FORMAT_YUV444_8bit_SemiPlanar:
    case CU_AD_FORMAT_YUV444_16bit_SemiPlanar:
        *unsupported = true;
        return 0;
    default:
        return 0;
    }
    if (fixed != 0) {
        return channels == fixed ? bytes * fixed : 0;
    }
    return channels == 1 || channels == 2 || channels == 4 ? bytes * channels
                                                           : 0;
}

static bool within(size_t v, CUdevice_attribute limit) {
    return v >= 1 && v <= (size_t)cuda_mock_device_limit(limit);
}

// The extents and flags of `d` make an array of a kind cuda.h lists, within
// the device's limits (the table of cuArray3DCreate).
static bool extents_valid(const CUDA_ARRAY3D_DESCRIPTOR *d) {
    size_t w = d->Width, h = d->Height, depth = d->Depth;
    bool layered = (d->Flags & CUDA_ARRAY3D_LAYERED) != 0;
    bool cube = (d->Flags & CUDA_ARRAY3D_CUBEMAP) != 0;
    bool surf = (d->Flags & CUDA_ARRAY3D_SURFACE_LDST) != 0;
    bool gather = (d->Flags & CUDA_ARRAY3D_TEXTURE_GATHER) != 0;
#define LIMIT(tex, sur)                                                        \
    (surf ? CU_DEVICE_ATTRIBUTE_MAXIMUM_##sur                                  \
          : CU_DEVICE_ATTRIBUTE_MAXIMUM_##tex)
    if (gather && (h == 0 || depth != 0 || layered || cube)) {
        return false; // "Texture gather can only be performed on 2D arrays"
    }
    if (cube) {
        if (h != w || depth == 0 || (layered ? depth % 6 != 0 : depth != 6)) {
            return false;
        }
        return layered ? within(w, LIMIT(TEXTURECUBEMAP_LAYERED_WIDTH,
                                         SURFACECUBEMAP_LAYERED_WIDTH)) &&
                             within(depth, LIMIT(TEXTURECUBEMAP_LAYERED_LAYERS,
                                                 SURFACECUBEMAP_LAYERED_LAYERS))
                       : within(w, LIMIT(TEXTURECUBEMAP_WIDTH,
                                         SURFACECUBEMAP_WIDTH));
    }
    if (layered) {
        if (depth == 0) {
            return false;
        }
        if (h == 0) {
            return within(w, LIMIT(TEXTURE1D_LAYERED_WIDTH,
                                   SURFACE1D_LAYERED_WIDTH)) &&
                   within(depth, LIMIT(TEXTURE1D_LAYERED_LAYERS,
                                       SURFACE1D_LAYERED_LAYERS));
        }
        return within(w, LIMIT(TEXTURE2D_LAYERED_WIDTH,
                               SURFACE2D_LAYERED_WIDTH)) &&
               within(h, LIMIT(TEXTURE2D_LAYERED_HEIGHT,
                               SURFACE2D_LAYERED_HEIGHT)) &&
               within(depth, LIMIT(TEXTURE2D_LAYERED_LAYERS,
                                   SURFACE2D_LAYERED_LAYERS));
    }
    if (h == 0 && depth == 0) {
        return within(w, LIMIT(TEXTURE1D_WIDTH, SURFACE1D_WIDTH));
    }
    if (h == 0) {
        return false; // a depth without a height is only 1D layered
    }
    if (depth == 0) {
        if (gather) {
            return within(w,
                          CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH) &&
                   within(h,
                          CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT);
        }
        return within(w, LIMIT(TEXTURE2D_WIDTH, SURFACE2D_WIDTH)) &&
               within(h, LIMIT(TEXTURE2D_HEIGHT, SURFACE2D_HEIGHT));
    }
    if (surf) {
        return within(w, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH) &&
               within(h, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT) &&
               within(depth, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH);
    }
    return (within(w, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH) &&
            within(h, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT) &&
            within(depth, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH)) ||
           (within(w, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE) &&
            within(h, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE) &&
            within(depth,
                   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE));
#undef LIMIT
}

static CUresult create(CUarray *out, const CUDA_ARRAY3D_DESCRIPTOR *d,
                       const char *call) {
    if (out == NULL || d == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_ctx_t *ctx;
    CUresult res = cuda_mock_ctx_current(&ctx);
    if (res != CUDA_SUCCESS) {
        return res;
    }
    if ((d->Flags & ~KNOWN_FLAGS) != 0) {
        UMF_MOCK_LOG_ERROR("%s: unknown flags 0x%x", call, d->Flags);
        return CUDA_ERROR_INVALID_VALUE;
    }
    const unsigned refused = CUDA_ARRAY3D_SPARSE |
                             CUDA_ARRAY3D_DEFERRED_MAPPING |
                             CUDA_ARRAY3D_VIDEO_ENCODE_DECODE;
    if ((d->Flags & refused) != 0) {
        UMF_MOCK_LOG_ERROR("%s: sparse, deferred-mapping and video arrays are "
                           "not supported by the emulated devices (flags "
                           "0x%x)",
                           call, d->Flags);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    bool unsupported;
    unsigned elem = element_size(d->Format, d->NumChannels, &unsupported);
    if (unsupported) {
        UMF_MOCK_LOG_ERROR("%s: format 0x%x (block-compressed or YUV) is not "
                           "supported by the emulated devices",
                           call, (unsigned)d->Format);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    if (elem == 0 || !extents_valid(d)) {
        UMF_MOCK_LOG_ERROR("%s: not an array the device makes: %zu x %zu x "
                           "%zu, format 0x%x, %u channels, flags 0x%x",
                           call, d->Width, d->Height, d->Depth,
                           (unsigned)d->Format, d->NumChannels, d->Flags);
        return CUDA_ERROR_INVALID_VALUE;
    }
    cuda_mock_array_layout_t l = {0};
    l.elem = elem;
    l.width_bytes = d->Width * elem; // within the limits: no overflow
    l.pitch = l.width_bytes;
    l.rows = d->Height != 0 ? d->Height : 1;
    l.slices = d->Depth != 0 ? d->Depth : 1;
    l.one_dimensional = d->Height == 0 && d->Depth == 0;
    l.device = cuda_mock_ctx_device(ctx);
    if (l.rows > SIZE_MAX / l.pitch ||
        l.slices > SIZE_MAX / (l.pitch * l.rows)) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    size_t bytes = l.pitch * l.rows * l.slices;
    void *mem;
    umf_mock_status_t st = umf_mock_alloc(UMF_MOCK_KIND_DEVICE, l.device, bytes,
                                          0, (uintptr_t)ctx, 0, &mem);
    if (st != UMF_MOCK_OK) {
        UMF_MOCK_LOG_INFO("%s: %zu bytes on device %d: %s", call, bytes,
                          l.device, umf_mock_status_name(st));
        return cuda_mock_result_of(st);
    }
    l.base = (uintptr_t)mem;
    struct CUarray_st *arr;
    res = cuda_mock_table_alloc(&arrays, (void **)&arr);
    if (res != CUDA_SUCCESS) {
        (void)umf_mock_free(mem, UMF_MOCK_KIND_DEVICE, 0, NULL);
        return res;
    }
    arr->ctx = cuda_mock_ctx_ref(ctx);
    arr->desc = *d;
    arr->layout = l;
    *out = arr;
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuArrayCreate_v2(CUarray *pHandle,
                                        const CUDA_ARRAY_DESCRIPTOR *desc) {
    CUDA_MOCK_ENTER(cuArrayCreate_v2);
    if (desc == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    // "one-dimensional if height is 0, two-dimensional otherwise"
    CUDA_ARRAY3D_DESCRIPTOR d = {desc->Width,  desc->Height,      0,
                                 desc->Format, desc->NumChannels, 0};
    return create(pHandle, &d, "cuArrayCreate_v2");
}

CUDA_MOCK_API CUresult cuArray3DCreate_v2(CUarray *pHandle,
                                          const CUDA_ARRAY3D_DESCRIPTOR *desc) {
    CUDA_MOCK_ENTER(cuArray3DCreate_v2);
    return create(pHandle, desc, "cuArray3DCreate_v2");
}

// Frees the array's memory and its slot (the winner of racing destroys).
static bool drop(struct CUarray_st *arr) {
    void *mem = (void *)arr->layout.base;
    if (!cuda_mock_table_free(&arrays, arr)) {
        return false;
    }
    (void)umf_mock_free(mem, UMF_MOCK_KIND_DEVICE, 0, NULL);
    return true;
}

CUDA_MOCK_API CUresult cuArrayDestroy(CUarray hArray) {
    CUDA_MOCK_ENTER(cuArrayDestroy);
    struct CUarray_st *arr = array_of(hArray, "cuArrayDestroy");
    if (arr == NULL) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    // Like a free: after the queued work that may copy to or from it.
    CUresult res = cuda_mock_order_before_free((const void *)arr->layout.base,
                                               "cuArrayDestroy");
    if (res != CUDA_SUCCESS) {
        return res;
    }
    return drop(arr) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUDA_MOCK_API CUresult cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *desc,
                                               CUarray hArray) {
    CUDA_MOCK_ENTER(cuArrayGetDescriptor_v2);
    if (desc == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    const struct CUarray_st *arr = array_of(hArray, "cuArrayGetDescriptor_v2");
    if (arr == NULL) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    desc->Width = arr->desc.Width;
    desc->Height = arr->desc.Height;
    desc->Format = arr->desc.Format;
    desc->NumChannels = arr->desc.NumChannels;
    return CUDA_SUCCESS;
}

CUDA_MOCK_API CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *desc,
                                                 CUarray hArray) {
    CUDA_MOCK_ENTER(cuArray3DGetDescriptor_v2);
    if (desc == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    const struct CUarray_st *arr =
        array_of(hArray, "cuArray3DGetDescriptor_v2");
    if (arr == NULL) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    *desc = arr->desc;
    return CUDA_SUCCESS;
}

// Only arrays made with CUDA_ARRAY3D_DEFERRED_MAPPING have requirements to
// report, and the emulated devices make none.
CUDA_MOCK_API CUresult
cuArrayGetMemoryRequirements(CUDA_ARRAY_MEMORY_REQUIREMENTS *memoryRequirements,
                             CUarray array, CUdevice device) {
    CUDA_MOCK_ENTER(cuArrayGetMemoryRequirements);
    if (memoryRequirements == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(device);
    if (array_of(array, "cuArrayGetMemoryRequirements") == NULL) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    UMF_MOCK_LOG_ERROR("cuArrayGetMemoryRequirements: the array was not made "
                       "with CUDA_ARRAY3D_DEFERRED_MAPPING");
    return CUDA_ERROR_INVALID_VALUE;
}

// No array is multi-planar: planes are of NV12 and the like, refused.
CUDA_MOCK_API CUresult cuArrayGetPlane(CUarray *pPlaneArray, CUarray hArray,
                                       unsigned int planeIdx) {
    CUDA_MOCK_ENTER(cuArrayGetPlane);
    if (pPlaneArray == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (array_of(hArray, "cuArrayGetPlane") == NULL) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    UMF_MOCK_LOG_ERROR("cuArrayGetPlane(%u): the array has no multi-planar "
                       "format",
                       planeIdx);
    return CUDA_ERROR_INVALID_VALUE;
}

// No array is sparse (CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED 0).
CUDA_MOCK_API CUresult cuArrayGetSparseProperties(
    CUDA_ARRAY_SPARSE_PROPERTIES *sparseProperties, CUarray array) {
    CUDA_MOCK_ENTER(cuArrayGetSparseProperties);
    if (sparseProperties == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (array_of(array, "cuArrayGetSparseProperties") == NULL) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    UMF_MOCK_LOG_ERROR("cuArrayGetSparseProperties: the array was not made "
                       "with CUDA_ARRAY3D_SPARSE");
    return CUDA_ERROR_INVALID_VALUE;
}

// ---------------------------------------------------------------------------
// Context teardown: its arrays go (their memory goes with the context's).

static void drop_if_of(void *slot, void *arg) {
    struct CUarray_st *arr = slot;
    if (arr->ctx.ctx == arg) {
        (void)cuda_mock_table_free(&arrays, arr);
    }
}

static void array_ctx_teardown(const cuda_mock_ctx_t *ctx) {
    cuda_mock_table_foreach(&arrays, drop_if_of, (void *)ctx);
}
CUDA_MOCK_CTX_TEARDOWN(CUDA_MOCK_TEARDOWN_ARRAYS, array_ctx_teardown);

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// CUDA arrays as memory, as cuda.h documents them: cuArrayCreate_v2 and
// cuArray3DCreate_v2 with their checks (extents, formats, channels, flags),
// the descriptors read back, and data round trips through arrays in 2D and
// 3D (cuMemcpy2D_v2, cuMemcpy3D_v2, cuMemcpy3DPeer, cuMemcpy3DAsync_v2) and
// through 1D arrays (cuMemcpyHtoA_v2, AtoH, DtoA, AtoD, AtoA, the Async
// forms) and in batches (cuMemcpy3DBatchAsync, both versions), every byte
// checked with copies back. The CudaArray cases run
// unchanged on a real libcuda.so.1; CudaArrayEmulated checks what only the
// emulation decides (refused formats, exact codes, memory accounting).

#include <cstdint>
#include <cstring>
#include <vector>

#include "cuda_test_fixture.h"

namespace {

typedef CUresult (*legacy_array_create_fn)(CUarray *, const void *);
// cuMemcpy3DBatchAsync of CUDA 12.8 (with failIdx); CUDA 13's is _v2.
typedef CUresult (*batch3d_12080_fn)(size_t, CUDA_MEMCPY3D_BATCH_OP *, size_t *,
                                     unsigned long long, CUstream);

class CudaArray : public CudaCtxTest {
  protected:
#define ARRAY_CALLS(X)                                                         \
    X(cuArrayCreate_v2)                                                        \
    X(cuArray3DCreate_v2)                                                      \
    X(cuArrayDestroy)                                                          \
    X(cuArrayGetDescriptor_v2)                                                 \
    X(cuArray3DGetDescriptor_v2)                                               \
    X(cuArrayGetMemoryRequirements)                                            \
    X(cuArrayGetPlane)                                                         \
    X(cuArrayGetSparseProperties)                                              \
    X(cuMemcpyHtoA_v2)                                                         \
    X(cuMemcpyAtoH_v2)                                                         \
    X(cuMemcpyDtoA_v2)                                                         \
    X(cuMemcpyAtoD_v2)                                                         \
    X(cuMemcpyAtoA_v2)                                                         \
    X(cuMemcpyHtoAAsync_v2)                                                    \
    X(cuMemcpyAtoHAsync_v2)                                                    \
    X(cuMemcpy3D_v2)                                                           \
    X(cuMemcpy3DAsync_v2)                                                      \
    X(cuMemcpy3DPeer)
    ARRAY_CALLS(CUDA_TEST_SYMBOL_MEMBER)

    void SetUp() override {
        CudaCtxTest::SetUp();
        if (HasFatalFailure()) {
            return;
        }
        ARRAY_CALLS(CUDA_TEST_SYMBOL_RESOLVE)
    }

    CUarray Make3D(size_t w, size_t h, size_t d, CUarray_format f,
                   unsigned channels, unsigned flags = 0) {
        CUDA_ARRAY3D_DESCRIPTOR desc = {};
        desc.Width = w;
        desc.Height = h;
        desc.Depth = d;
        desc.Format = f;
        desc.NumChannels = channels;
        desc.Flags = flags;
        CUarray a = nullptr;
        EXPECT_EQ(cuArray3DCreate_v2(&a, &desc), CUDA_SUCCESS);
        return a;
    }

    static std::vector<unsigned char> Pattern(size_t n, unsigned seed) {
        std::vector<unsigned char> v(n);
        for (size_t i = 0; i < n; i++) {
            v[i] = static_cast<unsigned char>((i * 131u + seed * 7u) >> 1);
        }
        return v;
    }

    // A host <-> array copy of a whole 3D box (arrays: whole extents).
    static CUDA_MEMCPY3D HostToArray(const void *host, size_t row_bytes,
                                     size_t rows, CUarray a, size_t depth) {
        CUDA_MEMCPY3D c = {};
        c.srcMemoryType = CU_MEMORYTYPE_HOST;
        c.srcHost = host;
        c.srcPitch = row_bytes;
        c.srcHeight = rows;
        c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
        c.dstArray = a;
        c.WidthInBytes = row_bytes;
        c.Height = rows;
        c.Depth = depth;
        return c;
    }
    static CUDA_MEMCPY3D ArrayToHost(CUarray a, void *host, size_t row_bytes,
                                     size_t rows, size_t depth) {
        CUDA_MEMCPY3D c = {};
        c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
        c.srcArray = a;
        c.dstMemoryType = CU_MEMORYTYPE_HOST;
        c.dstHost = host;
        c.dstPitch = row_bytes;
        c.dstHeight = rows;
        c.WidthInBytes = row_bytes;
        c.Height = rows;
        c.Depth = depth;
        return c;
    }
};

TEST_F(CudaArray, TwoDimensionalRoundTripThroughDeviceMemory) {
    const size_t w = 64, h = 32, elem = 4, row = w * elem;
    CUDA_ARRAY_DESCRIPTOR desc = {};
    desc.Width = w;
    desc.Height = h;
    desc.Format = CU_AD_FORMAT_FLOAT;
    desc.NumChannels = 1;
    CUarray a;
    CU_ASSERT_OK(cuArrayCreate_v2(&a, &desc));
    CUDA_ARRAY_DESCRIPTOR back = {};
    CU_ASSERT_OK(cuArrayGetDescriptor_v2(&back, a));
    EXPECT_EQ(back.Width, w);
    EXPECT_EQ(back.Height, h);
    EXPECT_EQ(back.Format, CU_AD_FORMAT_FLOAT);
    EXPECT_EQ(back.NumChannels, 1u);

    std::vector<unsigned char> data = Pattern(row * h, 1);
    CUDA_MEMCPY2D in = {};
    in.srcMemoryType = CU_MEMORYTYPE_HOST;
    in.srcHost = data.data();
    in.srcPitch = row;
    in.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    in.dstArray = a;
    in.WidthInBytes = row;
    in.Height = h;
    CU_ASSERT_OK(cu->cuMemcpy2D_v2(&in));
    // Array -> pitched device memory -> host.
    CUdeviceptr d;
    size_t pitch;
    CU_ASSERT_OK(cu->cuMemAllocPitch_v2(&d, &pitch, row, h, 4));
    CUDA_MEMCPY2D out = {};
    out.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    out.srcArray = a;
    out.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    out.dstDevice = d;
    out.dstPitch = pitch;
    out.WidthInBytes = row;
    out.Height = h;
    CU_ASSERT_OK(cu->cuMemcpy2D_v2(&out));
    std::vector<unsigned char> got(row * h);
    CUDA_MEMCPY2D down = {};
    down.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    down.srcDevice = d;
    down.srcPitch = pitch;
    down.dstMemoryType = CU_MEMORYTYPE_HOST;
    down.dstHost = got.data();
    down.dstPitch = row;
    down.WidthInBytes = row;
    down.Height = h;
    CU_ASSERT_OK(cu->cuMemcpy2D_v2(&down));
    EXPECT_EQ(got, data);

    // A sub-rectangle: elements 4..11 of rows 3..9, into a packed buffer.
    const size_t x = 4 * elem, y = 3, sw = 8 * elem, sh = 7;
    std::vector<unsigned char> part(sw * sh);
    CUDA_MEMCPY2D sub = {};
    sub.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    sub.srcArray = a;
    sub.srcXInBytes = x;
    sub.srcY = y;
    sub.dstMemoryType = CU_MEMORYTYPE_HOST;
    sub.dstHost = part.data();
    sub.dstPitch = sw;
    sub.WidthInBytes = sw;
    sub.Height = sh;
    CU_ASSERT_OK(cu->cuMemcpy2D_v2(&sub));
    for (size_t r = 0; r < sh; r++) {
        ASSERT_EQ(0, std::memcmp(&part[r * sw], &data[(y + r) * row + x], sw))
            << "row " << r;
    }
    // Array -> array, on a stream.
    CUarray b;
    CU_ASSERT_OK(cuArrayCreate_v2(&b, &desc));
    CUDA_MEMCPY2D aa = {};
    aa.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    aa.srcArray = a;
    aa.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    aa.dstArray = b;
    aa.WidthInBytes = row;
    aa.Height = h;
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    CU_ASSERT_OK(cu->cuMemcpy2DAsync_v2(&aa, s));
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    std::vector<unsigned char> viab(row * h);
    CUDA_MEMCPY3D bh = ArrayToHost(b, viab.data(), row, h, 1);
    CU_ASSERT_OK(cuMemcpy3D_v2(&bh));
    EXPECT_EQ(viab, data);
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
    CU_EXPECT_OK(cu->cuMemFree_v2(d));
    CU_EXPECT_OK(cuArrayDestroy(a));
    CU_EXPECT_OK(cuArrayDestroy(b));
}

TEST_F(CudaArray, ThreeDimensionalRoundTripAndBoxes) {
    const size_t w = 16, h = 8, depth = 4, elem = 4, row = w * elem;
    CUarray a = Make3D(w, h, depth, CU_AD_FORMAT_UNSIGNED_INT8, 4);
    ASSERT_NE(a, nullptr);
    CUDA_ARRAY3D_DESCRIPTOR desc = {};
    CU_ASSERT_OK(cuArray3DGetDescriptor_v2(&desc, a));
    EXPECT_EQ(desc.Width, w);
    EXPECT_EQ(desc.Height, h);
    EXPECT_EQ(desc.Depth, depth);
    EXPECT_EQ(desc.NumChannels, 4u);
    EXPECT_EQ(desc.Format, CU_AD_FORMAT_UNSIGNED_INT8);

    std::vector<unsigned char> data = Pattern(row * h * depth, 2);
    CUDA_MEMCPY3D in = HostToArray(data.data(), row, h, a, depth);
    CU_ASSERT_OK(cuMemcpy3D_v2(&in));
    std::vector<unsigned char> got(data.size());
    CUDA_MEMCPY3D out = ArrayToHost(a, got.data(), row, h, depth);
    CU_ASSERT_OK(cuMemcpy3D_v2(&out));
    EXPECT_EQ(got, data);

    // A box at (2 elements, 1, 1) of 5 x 3 x 2 elements, into device memory
    // with a pitch and slice height of its own, then back to the host.
    const size_t bx = 2 * elem, by = 1, bz = 1, bw = 5 * elem, bh = 3, bd = 2;
    const size_t dpitch = 128, dheight = 5;
    CUdeviceptr dev;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&dev, dpitch * dheight * bd));
    CUDA_MEMCPY3D box = {};
    box.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    box.srcArray = a;
    box.srcXInBytes = bx;
    box.srcY = by;
    box.srcZ = bz;
    box.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    box.dstDevice = dev;
    box.dstPitch = dpitch;
    box.dstHeight = dheight;
    box.WidthInBytes = bw;
    box.Height = bh;
    box.Depth = bd;
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CU_ASSERT_OK(cuMemcpy3DAsync_v2(&box, s));
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    std::vector<unsigned char> slab(dpitch * dheight * bd);
    CU_ASSERT_OK(cu->cuMemcpyDtoH_v2(slab.data(), dev, slab.size()));
    for (size_t z = 0; z < bd; z++) {
        for (size_t r = 0; r < bh; r++) {
            ASSERT_EQ(0, std::memcmp(&slab[(z * dheight + r) * dpitch],
                                     &data[((bz + z) * h + by + r) * row + bx],
                                     bw))
                << "slice " << z << " row " << r;
        }
    }
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
    CU_EXPECT_OK(cu->cuMemFree_v2(dev));
    CU_EXPECT_OK(cuArrayDestroy(a));
}

// One operation of a 3D batch, in elements.
CUmemcpy3DOperand PointerOperand(CUdeviceptr p, size_t row_length = 0,
                                 size_t layer_height = 0) {
    CUmemcpy3DOperand o = {};
    o.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
    o.op.ptr.ptr = p;
    o.op.ptr.rowLength = row_length;
    o.op.ptr.layerHeight = layer_height;
    return o;
}
CUmemcpy3DOperand ArrayOperand(CUarray a, size_t x = 0, size_t y = 0,
                               size_t z = 0) {
    CUmemcpy3DOperand o = {};
    o.type = CU_MEMCPY_OPERAND_TYPE_ARRAY;
    o.op.array.array = a;
    o.op.array.offset = {x, y, z};
    return o;
}
CUDA_MEMCPY3D_BATCH_OP BatchOp(CUmemcpy3DOperand src, CUmemcpy3DOperand dst,
                               size_t w, size_t h, size_t d) {
    CUDA_MEMCPY3D_BATCH_OP op = {};
    op.src = src;
    op.dst = dst;
    op.extent = {w, h, d};
    op.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
    return op;
}

// Batches of 3D copies: host -> array, then array -> device memory with a
// box of the array into host memory of a row length and layer height of
// its own, in one batch (the copies of a batch are unordered: none reads
// what another writes).
TEST_F(CudaArray, BatchesOfThreeDimensionalCopies) {
    auto batch = reinterpret_cast<decltype(&::cuMemcpy3DBatchAsync_v2)>(
        cuda_test_driver_symbol("cuMemcpy3DBatchAsync_v2"));
    if (batch == nullptr) {
        GTEST_SKIP() << "the driver predates CUDA 13's cuMemcpy3DBatchAsync";
    }
    const size_t w = 16, h = 8, depth = 4, elem = 4, row = w * elem;
    const size_t n = row * h * depth;
    CUarray a = Make3D(w, h, depth, CU_AD_FORMAT_UNSIGNED_INT32, 1);
    ASSERT_NE(a, nullptr);
    void *pinned;
    CU_ASSERT_OK(cu->cuMemAllocHost_v2(&pinned, 2 * n));
    unsigned char *in = static_cast<unsigned char *>(pinned), *box = in + n;
    std::vector<unsigned char> data = Pattern(n, 5);
    std::memcpy(in, data.data(), n);
    std::memset(box, 0, n);
    CUdeviceptr dev;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&dev, n));
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));

    CUDA_MEMCPY3D_BATCH_OP first =
        BatchOp(PointerOperand(reinterpret_cast<CUdeviceptr>(in)),
                ArrayOperand(a), w, h, depth);
    CU_ASSERT_OK(batch(1, &first, 0, s));
    // A box of 5 x 3 x 2 elements at (2, 1, 1), into rows of 8 elements
    // and layers of 5 rows.
    const size_t bw = 5, bh = 3, bd = 2, bx = 2, by = 1, bz = 1;
    const size_t rl = 8, lh = 5;
    CUDA_MEMCPY3D_BATCH_OP second[2] = {
        BatchOp(ArrayOperand(a), PointerOperand(dev), w, h, depth),
        BatchOp(ArrayOperand(a, bx, by, bz),
                PointerOperand(reinterpret_cast<CUdeviceptr>(box), rl, lh), bw,
                bh, bd)};
    CU_ASSERT_OK(batch(2, second, 0, s));
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    std::vector<unsigned char> got(n);
    CU_ASSERT_OK(cu->cuMemcpyDtoH_v2(got.data(), dev, n));
    EXPECT_EQ(got, data);
    for (size_t z = 0; z < bd; z++) {
        for (size_t r = 0; r < bh; r++) {
            ASSERT_EQ(
                0, std::memcmp(&box[((z * lh) + r) * rl * elem],
                               &data[((bz + z) * h + by + r) * row + bx * elem],
                               bw * elem))
                << "slice " << z << " row " << r;
        }
    }

    // What cuda.h forbids.
    CUDA_MEMCPY3D_BATCH_OP bad = first;
    bad.extent.depth = 0;
    EXPECT_EQ(batch(1, &bad, 0, s), CUDA_ERROR_INVALID_VALUE)
        << "an extent of 0";
    bad = first;
    bad.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_INVALID;
    EXPECT_EQ(batch(1, &bad, 0, s), CUDA_ERROR_INVALID_VALUE);
    bad = second[1];
    bad.dst.op.ptr.rowLength = bw - 1;
    EXPECT_EQ(batch(1, &bad, 0, s), CUDA_ERROR_INVALID_VALUE)
        << "a row length shorter than the extent";
    EXPECT_EQ(batch(1, &first, 1, s), CUDA_ERROR_INVALID_VALUE)
        << "flags must be 0";
    EXPECT_EQ(batch(1, &first, 0, nullptr), CUDA_ERROR_INVALID_VALUE)
        << "not the legacy default stream";
    EXPECT_EQ(batch(0, &first, 0, s), CUDA_ERROR_INVALID_VALUE);
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));

    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
    CU_EXPECT_OK(cu->cuMemFree_v2(dev));
    CU_EXPECT_OK(cu->cuMemFreeHost(pinned));
    CU_EXPECT_OK(cuArrayDestroy(a));
}

TEST_F(CudaArray, PeerCopyIntoAnArray) {
    const size_t w = 32, h = 4, row = w * 2;
    CUarray a = Make3D(w, h, 0, CU_AD_FORMAT_HALF, 1);
    ASSERT_NE(a, nullptr);
    std::vector<unsigned char> data = Pattern(row * h, 3);
    CUdeviceptr d;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&d, data.size()));
    CU_ASSERT_OK(cu->cuMemcpyHtoD_v2(d, data.data(), data.size()));
    CUDA_MEMCPY3D_PEER p = {};
    p.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    p.srcDevice = d;
    p.srcContext = ctx;
    p.srcPitch = row;
    p.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    p.dstArray = a;
    p.WidthInBytes = row;
    p.Height = h;
    p.Depth = 1;
    CU_ASSERT_OK(cuMemcpy3DPeer(&p));
    std::vector<unsigned char> got(data.size());
    CUDA_MEMCPY3D out = ArrayToHost(a, got.data(), row, h, 1);
    CU_ASSERT_OK(cuMemcpy3D_v2(&out));
    EXPECT_EQ(got, data);
    CU_EXPECT_OK(cu->cuMemFree_v2(d));
    CU_EXPECT_OK(cuArrayDestroy(a));
}

TEST_F(CudaArray, LayeredAndCubemapArrays) {
    const size_t w = 8, h = 8, layers = 3, row = w * 4;
    CUarray layered = Make3D(w, h, layers, CU_AD_FORMAT_SIGNED_INT32, 1,
                             CUDA_ARRAY3D_LAYERED);
    ASSERT_NE(layered, nullptr);
    std::vector<unsigned char> data = Pattern(row * h * layers, 4);
    CUDA_MEMCPY3D in = HostToArray(data.data(), row, h, layered, layers);
    CU_ASSERT_OK(cuMemcpy3D_v2(&in));
    // The middle layer alone.
    std::vector<unsigned char> mid(row * h);
    CUDA_MEMCPY3D one = ArrayToHost(layered, mid.data(), row, h, 1);
    one.srcZ = 1;
    CU_ASSERT_OK(cuMemcpy3D_v2(&one));
    EXPECT_EQ(0, std::memcmp(mid.data(), &data[row * h], mid.size()));
    CUDA_ARRAY3D_DESCRIPTOR desc = {};
    CU_ASSERT_OK(cuArray3DGetDescriptor_v2(&desc, layered));
    EXPECT_EQ(desc.Flags, static_cast<unsigned>(CUDA_ARRAY3D_LAYERED));
    CU_EXPECT_OK(cuArrayDestroy(layered));

    CUarray cube =
        Make3D(16, 16, 6, CU_AD_FORMAT_UNSIGNED_INT16, 2, CUDA_ARRAY3D_CUBEMAP);
    ASSERT_NE(cube, nullptr);
    CU_EXPECT_OK(cuArrayDestroy(cube));
    CUarray surf =
        Make3D(100, 0, 0, CU_AD_FORMAT_FLOAT, 4, CUDA_ARRAY3D_SURFACE_LDST);
    ASSERT_NE(surf, nullptr);
    CU_EXPECT_OK(cuArrayDestroy(surf));
}

TEST_F(CudaArray, OneDimensionalArrayCopies) {
    const size_t n = 1000, elem = 4, bytes = n * elem;
    CUDA_ARRAY_DESCRIPTOR desc = {};
    desc.Width = n;
    desc.Height = 0; // 1D
    desc.Format = CU_AD_FORMAT_UNSIGNED_INT32;
    desc.NumChannels = 1;
    CUarray a, b;
    CU_ASSERT_OK(cuArrayCreate_v2(&a, &desc));
    CU_ASSERT_OK(cuArrayCreate_v2(&b, &desc));
    std::vector<unsigned char> data = Pattern(bytes, 5);
    CU_ASSERT_OK(cuMemcpyHtoA_v2(a, 0, data.data(), bytes));
    // Array -> array at an offset, -> device -> array -> host.
    const size_t off = 40;
    CU_ASSERT_OK(cuMemcpyAtoA_v2(b, 0, a, off, bytes - off));
    CUdeviceptr d;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&d, bytes));
    CU_ASSERT_OK(cuMemcpyAtoD_v2(d, b, 0, bytes - off));
    CU_ASSERT_OK(cuMemcpyDtoA_v2(a, 0, d, bytes - off));
    std::vector<unsigned char> got(bytes - off);
    CU_ASSERT_OK(cuMemcpyAtoH_v2(got.data(), a, 0, got.size()));
    EXPECT_EQ(0, std::memcmp(got.data(), &data[off], got.size()));
    // The Async forms on a stream.
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, 0));
    void *pinned;
    CU_ASSERT_OK(cu->cuMemAllocHost_v2(&pinned, bytes));
    std::memcpy(pinned, data.data(), bytes);
    CU_ASSERT_OK(cuMemcpyHtoAAsync_v2(b, 0, pinned, bytes, s));
    std::memset(pinned, 0, bytes);
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    CU_ASSERT_OK(cuMemcpyAtoHAsync_v2(pinned, b, 0, bytes, s));
    CU_ASSERT_OK(cu->cuStreamSynchronize(s));
    EXPECT_EQ(0, std::memcmp(pinned, data.data(), bytes));
    // Past the end.
    EXPECT_EQ(cuMemcpyHtoA_v2(a, elem, data.data(), bytes),
              CUDA_ERROR_INVALID_VALUE);
    CU_EXPECT_OK(cu->cuMemFreeHost(pinned));
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
    CU_EXPECT_OK(cu->cuMemFree_v2(d));
    CU_EXPECT_OK(cuArrayDestroy(a));
    CU_EXPECT_OK(cuArrayDestroy(b));
}

TEST_F(CudaArray, CreateErrors) {
    CUarray a;
    CUDA_ARRAY3D_DESCRIPTOR d = {};
    d.Width = 64;
    d.Height = 64;
    d.Format = CU_AD_FORMAT_FLOAT;
    d.NumChannels = 1;
    EXPECT_EQ(cuArray3DCreate_v2(nullptr, &d), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cuArray3DCreate_v2(&a, nullptr), CUDA_ERROR_INVALID_VALUE);
    CUDA_ARRAY3D_DESCRIPTOR bad = d;
    bad.NumChannels = 3;
    EXPECT_EQ(cuArray3DCreate_v2(&a, &bad), CUDA_ERROR_INVALID_VALUE)
        << "channels are 1, 2 or 4";
    bad = d;
    bad.Width = 0;
    EXPECT_EQ(cuArray3DCreate_v2(&a, &bad), CUDA_ERROR_INVALID_VALUE);
    bad = d;
    bad.Height = 0;
    bad.Depth = 5;
    EXPECT_EQ(cuArray3DCreate_v2(&a, &bad), CUDA_ERROR_INVALID_VALUE)
        << "a depth without a height is only 1D layered";
    bad = d;
    bad.Height = 32;
    bad.Depth = 6;
    bad.Flags = CUDA_ARRAY3D_CUBEMAP;
    EXPECT_EQ(cuArray3DCreate_v2(&a, &bad), CUDA_ERROR_INVALID_VALUE)
        << "a cubemap is square";
    bad = d;
    bad.Width = 1u << 20;
    EXPECT_EQ(cuArray3DCreate_v2(&a, &bad), CUDA_ERROR_INVALID_VALUE)
        << "past MAXIMUM_TEXTURE2D_WIDTH";
    bad = d;
    bad.Format = static_cast<CUarray_format>(0x77);
    EXPECT_EQ(cuArray3DCreate_v2(&a, &bad), CUDA_ERROR_INVALID_VALUE);
    CUDA_ARRAY_DESCRIPTOR d2 = {};
    d2.Width = 16;
    d2.Format = CU_AD_FORMAT_FLOAT;
    d2.NumChannels = 1;
    EXPECT_EQ(cuArrayCreate_v2(nullptr, &d2), CUDA_ERROR_INVALID_VALUE);
    CUcontext top;
    CU_ASSERT_OK(cu->cuCtxPopCurrent_v2(&top));
    EXPECT_EQ(cuArrayCreate_v2(&a, &d2), CUDA_ERROR_INVALID_CONTEXT);
    CU_ASSERT_OK(cu->cuCtxPushCurrent_v2(top));
}

TEST_F(CudaArray, CopyErrors) {
    const size_t w = 16, h = 16, row = w * 4;
    CUarray a = Make3D(w, h, 0, CU_AD_FORMAT_FLOAT, 1);
    ASSERT_NE(a, nullptr);
    std::vector<unsigned char> host(row * (h + 1));
    CUDA_MEMCPY3D c = HostToArray(host.data(), row, h, a, 1);
    CUDA_MEMCPY3D bad = c;
    bad.Height = h + 1;
    EXPECT_EQ(cuMemcpy3D_v2(&bad), CUDA_ERROR_INVALID_VALUE)
        << "past the array's rows";
    bad = c;
    bad.dstXInBytes = 2; // not a whole element
    bad.WidthInBytes = row - 4;
    EXPECT_EQ(cuMemcpy3D_v2(&bad), CUDA_ERROR_INVALID_VALUE);
    bad = c;
    bad.dstXInBytes = 4;
    EXPECT_EQ(cuMemcpy3D_v2(&bad), CUDA_ERROR_INVALID_VALUE)
        << "past the array's width";
    bad = c;
    bad.srcLOD = 1;
    EXPECT_EQ(cuMemcpy3D_v2(&bad), CUDA_ERROR_INVALID_VALUE)
        << "LODs must be 0";
    bad = c;
    bad.srcPitch = row - 4;
    EXPECT_EQ(cuMemcpy3D_v2(&bad), CUDA_ERROR_INVALID_VALUE)
        << "a pitch smaller than a row";
    bad = c;
    bad.dstMemoryType = static_cast<CUmemorytype>(9);
    EXPECT_EQ(cuMemcpy3D_v2(&bad), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(cuMemcpy3D_v2(nullptr), CUDA_ERROR_INVALID_VALUE);
    // A 2D array is not for the 1D copies.
    EXPECT_NE(cuMemcpyHtoA_v2(a, 0, host.data(), 64), CUDA_SUCCESS);
    // Queries that no plain array answers.
    CUarray plane;
    EXPECT_EQ(cuArrayGetPlane(&plane, a, 0), CUDA_ERROR_INVALID_VALUE)
        << "not multi-planar";
    CUDA_ARRAY_SPARSE_PROPERTIES sp;
    EXPECT_EQ(cuArrayGetSparseProperties(&sp, a), CUDA_ERROR_INVALID_VALUE)
        << "not sparse";
    CUDA_ARRAY_MEMORY_REQUIREMENTS req;
    EXPECT_EQ(cuArrayGetMemoryRequirements(&req, a, dev),
              CUDA_ERROR_INVALID_VALUE)
        << "not made with CUDA_ARRAY3D_DEFERRED_MAPPING";
    CU_ASSERT_OK(cuArrayDestroy(a));
    EXPECT_NE(cuArrayDestroy(a), CUDA_SUCCESS) << "destroyed already";
    EXPECT_NE(cuMemcpy3D_v2(&c), CUDA_SUCCESS) << "a destroyed array";
}

// ---------------------------------------------------------------------------
// The emulation's own decisions

using CudaArrayEmulated = CudaEmulatedOnly<CudaArray>;

TEST_F(CudaArrayEmulated, RefusedKindsAndExactCodes) {
    CUarray a;
    CUDA_ARRAY3D_DESCRIPTOR d = {};
    d.Width = 64;
    d.Height = 64;
    d.Format = CU_AD_FORMAT_NV12;
    d.NumChannels = 1;
    EXPECT_EQ(cuArray3DCreate_v2(&a, &d), CUDA_ERROR_NOT_SUPPORTED)
        << "YUV formats are not emulated";
    d.Format = CU_AD_FORMAT_BC1_UNORM;
    d.NumChannels = 4;
    EXPECT_EQ(cuArray3DCreate_v2(&a, &d), CUDA_ERROR_NOT_SUPPORTED)
        << "block-compressed formats are not emulated";
    d.Format = CU_AD_FORMAT_FLOAT;
    d.NumChannels = 1;
    d.Flags = CUDA_ARRAY3D_SPARSE;
    EXPECT_EQ(cuArray3DCreate_v2(&a, &d), CUDA_ERROR_NOT_SUPPORTED);
    d.Flags = CUDA_ARRAY3D_DEFERRED_MAPPING;
    EXPECT_EQ(cuArray3DCreate_v2(&a, &d), CUDA_ERROR_NOT_SUPPORTED);
    d.Flags = 0x10000;
    EXPECT_EQ(cuArray3DCreate_v2(&a, &d), CUDA_ERROR_INVALID_VALUE);
    d.Flags = 0;
    d.Format = CU_AD_FORMAT_UNORM_INT8X2;
    d.NumChannels = 4;
    EXPECT_EQ(cuArray3DCreate_v2(&a, &d), CUDA_ERROR_INVALID_VALUE)
        << "the normalized formats carry their channel count";
    d.NumChannels = 2;
    CU_ASSERT_OK(cuArray3DCreate_v2(&a, &d));
    std::vector<char> host(64);
    EXPECT_EQ(cuMemcpyHtoA_v2(a, 0, host.data(), 64), CUDA_ERROR_INVALID_VALUE)
        << "a 2D array";
    CU_ASSERT_OK(cuArrayDestroy(a));
    EXPECT_EQ(cuArrayDestroy(a), CUDA_ERROR_INVALID_HANDLE);
    EXPECT_EQ(cuMemcpyHtoA_v2(a, 0, host.data(), 64),
              CUDA_ERROR_INVALID_HANDLE);
    // The legacy 32-bit forms are refused as every legacy name is.
    auto legacy = reinterpret_cast<legacy_array_create_fn>(
        cuda_test_driver_symbol("cuArrayCreate"));
    ASSERT_NE(legacy, nullptr);
    EXPECT_EQ(legacy(&a, &d), CUDA_ERROR_NOT_SUPPORTED);
}

// CUDA 12.8's batch names the operation that failed; SIZE_MAX for the
// batch as a whole.
TEST_F(CudaArrayEmulated, BatchFailIndex) {
    auto batch = reinterpret_cast<batch3d_12080_fn>(
        cuda_test_driver_symbol("cuMemcpy3DBatchAsync"));
    ASSERT_NE(batch, nullptr);
    CUarray a = Make3D(8, 8, 0, CU_AD_FORMAT_UNSIGNED_INT8, 2);
    ASSERT_NE(a, nullptr);
    CUarray b = Make3D(8, 8, 0, CU_AD_FORMAT_UNSIGNED_INT8, 1);
    ASSERT_NE(b, nullptr);
    CUdeviceptr dev;
    CU_ASSERT_OK(cu->cuMemAlloc_v2(&dev, 256));
    CUstream s;
    CU_ASSERT_OK(cu->cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUDA_MEMCPY3D_BATCH_OP ops[3] = {
        BatchOp(ArrayOperand(a), PointerOperand(dev), 8, 8, 1),
        BatchOp(PointerOperand(dev), ArrayOperand(a), 8, 8, 1),
        BatchOp(ArrayOperand(a), ArrayOperand(b), 8, 8, 1)};
    size_t fail = 0;
    CU_ASSERT_OK(batch(2, ops, &fail, 0, s));
    EXPECT_EQ(batch(3, ops, &fail, 0, s), CUDA_ERROR_INVALID_VALUE)
        << "arrays of elements of 2 and 1 bytes";
    EXPECT_EQ(fail, 2u);
    ops[1].extent.width = 9;
    EXPECT_EQ(batch(2, ops, &fail, 0, s), CUDA_ERROR_INVALID_VALUE)
        << "past the array";
    EXPECT_EQ(fail, 1u);
    EXPECT_EQ(batch(2, ops, &fail, 1, s), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(fail, SIZE_MAX);
    auto ptsz = reinterpret_cast<batch3d_12080_fn>(
        cuda_test_driver_symbol("cuMemcpy3DBatchAsync_ptsz"));
    ASSERT_NE(ptsz, nullptr);
    CU_EXPECT_OK(ptsz(1, ops, &fail, 0, nullptr))
        << "NULL is the per-thread default stream there";
    CU_EXPECT_OK(cu->cuCtxSynchronize());
    CU_EXPECT_OK(cu->cuStreamDestroy_v2(s));
    CU_EXPECT_OK(cu->cuMemFree_v2(dev));
    CU_EXPECT_OK(cuArrayDestroy(a));
    CU_EXPECT_OK(cuArrayDestroy(b));
}

TEST_F(CudaArrayEmulated, ArraysAreDeviceMemoryOfTheirContext) {
    size_t free0, total, free1;
    CU_ASSERT_OK(cu->cuMemGetInfo_v2(&free0, &total));
    CUarray a = Make3D(1024, 1024, 0, CU_AD_FORMAT_FLOAT, 4); // 16 MiB
    ASSERT_NE(a, nullptr);
    CU_ASSERT_OK(cu->cuMemGetInfo_v2(&free1, &total));
    EXPECT_GE(free0 - free1, static_cast<size_t>(16) << 20);
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("CUDA array"), 1);
    CU_ASSERT_OK(cuArrayDestroy(a));
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("CUDA array"), 0);
    // An array goes with its context.
    CUcontext c;
    CU_ASSERT_OK(cu->cuCtxCreate_v2(&c, 0, dev));
    a = Make3D(64, 0, 0, CU_AD_FORMAT_FLOAT, 1);
    ASSERT_NE(a, nullptr);
    CU_ASSERT_OK(cu->cuCtxDestroy_v2(c));
    EXPECT_EQ(cu->umfCudaMockGetObjectCount("CUDA array"), 0);
    EXPECT_EQ(cuArrayDestroy(a), CUDA_ERROR_INVALID_HANDLE);
}

} // namespace

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The functions of cudaGL.h, cudaEGL.h and cudaVDPAU.h on the emulated
// driver, which has no OpenGL, EGL or VDPAU: each is exported under every
// name the headers map it to, and refuses with a result its header
// documents (cuInit first, NULL out-pointers, a current context where the
// header lists CUDA_ERROR_INVALID_CONTEXT, then the foreign object that
// cannot exist), with a log line naming the call. Emulated driver only: a
// real driver with a display answers otherwise.

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <cudaEGL.h>
#include <cudaGL.h>
#include <vdpau/vdpau.h> // before cudaVDPAU.h, which needs it

#include <cudaVDPAU.h>

#include "cuda_test_fixture.h"

// The deprecated GL calls are among those tested.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace {

// An entry point by its exported name, with the type of the header's
// declaration `decl` (cuGLGetDevices is cuGLGetDevices_v2 ...).
template <typename F> F sym(const cuda_test_driver_t *, const char *name) {
    F fn = reinterpret_cast<F>(cuda_test_driver_symbol(name));
    EXPECT_NE(fn, nullptr) << name << " is not exported";
    return fn;
}
#define SYM(decl, name) sym<decltype(&::decl)>(cu, name)

// The legacy names with 32-bit device pointers (CUdeviceptr_v1), as cudaGL.h
// declares them to a driver (__CUDA_API_VERSION_INTERNAL), which a client never
// sees.
using gl_map_v1_t = CUresult (*)(unsigned int *, unsigned int *, GLuint);
using gl_map_async_v1_t = CUresult (*)(unsigned int *, unsigned int *, GLuint,
                                       CUstream);

struct case_t {
    std::string what; // the exported name, then what is checked
    CUresult want;
    CUresult got;
};

// Every exported name, each called with arguments that pass every check
// but the last (the foreign object, or the missing context or cuInit when
// `want_all` is given: that result for all of them).
std::vector<case_t> call_all(const cuda_test_driver_t *cu, CUresult want_all,
                             bool have_ctx) {
    std::vector<case_t> cases;
    auto check = [&](const char *what, CUresult want, CUresult got) {
        cases.push_back(
            {what, want_all != CUDA_SUCCESS ? want_all : want, got});
    };
    // Where the header lists CUDA_ERROR_INVALID_CONTEXT for a call that
    // works in a context.
    CUresult ctx_or = have_ctx ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
    auto in_ctx = [&](CUresult want) {
        return ctx_or != CUDA_SUCCESS ? ctx_or : want;
    };

    CUgraphicsResource res = nullptr;
    CUdeviceptr dptr = 0;
    size_t size = 0;
    unsigned int dptr1 = 0; // CUdeviceptr_v1
    unsigned size1 = 0;
    CUcontext made = nullptr;
    CUstream stream = nullptr;

    check("cuGraphicsGLRegisterBuffer", in_ctx(CUDA_ERROR_INVALID_HANDLE),
          SYM(cuGraphicsGLRegisterBuffer, "cuGraphicsGLRegisterBuffer")(&res, 1,
                                                                        0));
    check("cuGraphicsGLRegisterImage", in_ctx(CUDA_ERROR_INVALID_HANDLE),
          SYM(cuGraphicsGLRegisterImage,
              "cuGraphicsGLRegisterImage")(&res, 1, GL_TEXTURE_2D, 0));
    for (const char *name : {"cuGLGetDevices_v2", "cuGLGetDevices"}) {
        unsigned count = 7;
        CUdevice devs[4];
        check(
            name, CUDA_ERROR_INVALID_GRAPHICS_CONTEXT,
            SYM(cuGLGetDevices, name)(&count, devs, 4, CU_GL_DEVICE_LIST_ALL));
        if (want_all == CUDA_SUCCESS) {
            EXPECT_EQ(count, 0u) << name << ": no device of a GL context";
        }
    }
    for (const char *name : {"cuGLCtxCreate_v2", "cuGLCtxCreate"}) {
        check(name, CUDA_ERROR_NOT_SUPPORTED,
              SYM(cuGLCtxCreate, name)(&made, 0, 0));
    }
    check("cuGLInit", CUDA_ERROR_NOT_SUPPORTED, SYM(cuGLInit, "cuGLInit")());
    check("cuGLRegisterBufferObject", in_ctx(CUDA_ERROR_NOT_SUPPORTED),
          SYM(cuGLRegisterBufferObject, "cuGLRegisterBufferObject")(1));
    for (const char *name :
         {"cuGLMapBufferObject_v2", "cuGLMapBufferObject_v2_ptds"}) {
        check(name, in_ctx(CUDA_ERROR_INVALID_VALUE),
              SYM(cuGLMapBufferObject, name)(&dptr, &size, 1));
    }
    check("cuGLMapBufferObject", in_ctx(CUDA_ERROR_INVALID_VALUE),
          sym<gl_map_v1_t>(cu, "cuGLMapBufferObject")(&dptr1, &size1, 1));
    for (const char *name :
         {"cuGLMapBufferObjectAsync_v2", "cuGLMapBufferObjectAsync_v2_ptsz"}) {
        check(name, in_ctx(CUDA_ERROR_INVALID_VALUE),
              SYM(cuGLMapBufferObjectAsync, name)(&dptr, &size, 1, stream));
    }
    check("cuGLMapBufferObjectAsync", in_ctx(CUDA_ERROR_INVALID_VALUE),
          sym<gl_map_async_v1_t>(cu, "cuGLMapBufferObjectAsync")(&dptr1, &size1,
                                                                 1, stream));
    check("cuGLUnmapBufferObject", in_ctx(CUDA_ERROR_INVALID_VALUE),
          SYM(cuGLUnmapBufferObject, "cuGLUnmapBufferObject")(1));
    check("cuGLUnmapBufferObjectAsync", in_ctx(CUDA_ERROR_INVALID_VALUE),
          SYM(cuGLUnmapBufferObjectAsync,
              "cuGLUnmapBufferObjectAsync")(1, stream));
    check("cuGLUnregisterBufferObject", in_ctx(CUDA_ERROR_INVALID_VALUE),
          SYM(cuGLUnregisterBufferObject, "cuGLUnregisterBufferObject")(1));
    check(
        "cuGLSetBufferObjectMapFlags", in_ctx(CUDA_ERROR_INVALID_HANDLE),
        SYM(cuGLSetBufferObjectMapFlags, "cuGLSetBufferObjectMapFlags")(1, 0));

    // Any address: nothing may read through a handle that cannot exist.
    static int object;
    void *foreign = &object;
    CUeglStreamConnection conn =
        reinterpret_cast<CUeglStreamConnection>(foreign);
    CUeglFrame frame;
    std::memset(&frame, 0, sizeof(frame));
    check("cuGraphicsEGLRegisterImage", in_ctx(CUDA_ERROR_INVALID_HANDLE),
          SYM(cuGraphicsEGLRegisterImage,
              "cuGraphicsEGLRegisterImage")(&res, foreign, 0));
    CUeglStreamConnection out = nullptr;
    check("cuEGLStreamConsumerConnect", in_ctx(CUDA_ERROR_INVALID_HANDLE),
          SYM(cuEGLStreamConsumerConnect,
              "cuEGLStreamConsumerConnect")(&out, foreign));
    check("cuEGLStreamConsumerConnectWithFlags",
          in_ctx(CUDA_ERROR_INVALID_HANDLE),
          SYM(cuEGLStreamConsumerConnectWithFlags,
              "cuEGLStreamConsumerConnectWithFlags")(&out, foreign, 0));
    check("cuEGLStreamProducerConnect", in_ctx(CUDA_ERROR_INVALID_HANDLE),
          SYM(cuEGLStreamProducerConnect,
              "cuEGLStreamProducerConnect")(&out, foreign, 64, 64));
    check("cuEGLStreamConsumerDisconnect", CUDA_ERROR_INVALID_HANDLE,
          SYM(cuEGLStreamConsumerDisconnect,
              "cuEGLStreamConsumerDisconnect")(&conn));
    check("cuEGLStreamProducerDisconnect", CUDA_ERROR_INVALID_HANDLE,
          SYM(cuEGLStreamProducerDisconnect,
              "cuEGLStreamProducerDisconnect")(&conn));
    check("cuEGLStreamConsumerAcquireFrame", CUDA_ERROR_INVALID_HANDLE,
          SYM(cuEGLStreamConsumerAcquireFrame,
              "cuEGLStreamConsumerAcquireFrame")(&conn, &res, &stream, 0));
    check("cuEGLStreamConsumerReleaseFrame", CUDA_ERROR_INVALID_HANDLE,
          SYM(cuEGLStreamConsumerReleaseFrame,
              "cuEGLStreamConsumerReleaseFrame")(&conn, res, &stream));
    check("cuEGLStreamProducerPresentFrame", CUDA_ERROR_INVALID_HANDLE,
          SYM(cuEGLStreamProducerPresentFrame,
              "cuEGLStreamProducerPresentFrame")(&conn, frame, &stream));
    check("cuEGLStreamProducerReturnFrame", CUDA_ERROR_INVALID_HANDLE,
          SYM(cuEGLStreamProducerReturnFrame,
              "cuEGLStreamProducerReturnFrame")(&conn, &frame, &stream));
    check("cuGraphicsResourceGetMappedEglFrame", CUDA_ERROR_INVALID_HANDLE,
          SYM(cuGraphicsResourceGetMappedEglFrame,
              "cuGraphicsResourceGetMappedEglFrame")(
              &frame, reinterpret_cast<CUgraphicsResource>(foreign), 0, 0));
    CUevent event = nullptr;
    check("cuEventCreateFromEGLSync", in_ctx(CUDA_ERROR_INVALID_VALUE),
          SYM(cuEventCreateFromEGLSync,
              "cuEventCreateFromEGLSync")(&event, foreign, 0));

    VdpGetProcAddress *gpa = reinterpret_cast<VdpGetProcAddress *>(foreign);
    CUdevice dev = -1;
    check("cuVDPAUGetDevice", CUDA_ERROR_INVALID_VALUE,
          SYM(cuVDPAUGetDevice, "cuVDPAUGetDevice")(&dev, 1, gpa));
    for (const char *name : {"cuVDPAUCtxCreate_v2", "cuVDPAUCtxCreate"}) {
        check(name, CUDA_ERROR_INVALID_VALUE,
              SYM(cuVDPAUCtxCreate, name)(&made, 0, 0, 1, gpa));
    }
    check("cuGraphicsVDPAURegisterVideoSurface",
          in_ctx(CUDA_ERROR_INVALID_HANDLE),
          SYM(cuGraphicsVDPAURegisterVideoSurface,
              "cuGraphicsVDPAURegisterVideoSurface")(&res, 1, 0));
    check("cuGraphicsVDPAURegisterOutputSurface",
          in_ctx(CUDA_ERROR_INVALID_HANDLE),
          SYM(cuGraphicsVDPAURegisterOutputSurface,
              "cuGraphicsVDPAURegisterOutputSurface")(&res, 1, 0));

    // Nothing was made.
    EXPECT_EQ(made, nullptr);
    EXPECT_EQ(res, nullptr);
    EXPECT_EQ(out, nullptr);
    EXPECT_EQ(event, nullptr);
    return cases;
}

void expect_all(const cuda_test_driver_t *cu,
                const std::vector<case_t> &cases) {
    // Every name of the three headers on Linux (cuWGLGetDevice is Windows'),
    // each counted by the driver.
    EXPECT_EQ(cases.size(), 35u);
    for (const case_t &c : cases) {
        EXPECT_EQ(c.got, c.want) << c.what;
        EXPECT_GE(cu->umfCudaMockGetCallCount(c.what.c_str()), 1) << c.what;
    }
}

using InteropBeforeInit = CudaEmulatedOnly<CudaLoaded>;
using InteropNoContext = CudaEmulatedOnly<CudaTest>;
using Interop = CudaEmulatedOnly<CudaCtxTest>;

// In a child: this process may have called cuInit already.
UMF_TEST_CHILD(interop_before_init) {
    cuda_test_child_stderr_to_socket(sock);
    const cuda_test_driver_t *cu = cuda_test_child_setup(argc, argv, false);
    CHILD_ASSERT(cu != nullptr);
    std::vector<case_t> cases = call_all(cu, CUDA_ERROR_NOT_INITIALIZED, false);
    CHILD_EXPECT(cases.size() == 35);
    for (const case_t &c : cases) {
        if (c.got != c.want) {
            std::fprintf(stderr, "%s: %s, not %s\n", c.what.c_str(),
                         cuda_test_result(c.got).c_str(),
                         cuda_test_result(c.want).c_str());
        }
        CHILD_EXPECT(c.got == c.want);
    }
    return 0;
}

TEST_F(InteropBeforeInit, EveryCallNeedsCuInit) {
    int status = -1;
    std::string out;
    ASSERT_TRUE(cuda_test_run_child("interop_before_init", {}, &status, &out));
    EXPECT_EQ(status, 0) << out;
}

TEST_F(InteropNoContext, RegistrationsNeedAContext) {
    expect_all(cu, call_all(cu, CUDA_SUCCESS, false));
}

TEST_F(Interop, EveryCallRefusesWithTheHeadersResult) {
    expect_all(cu, call_all(cu, CUDA_SUCCESS, true));
}

TEST_F(Interop, NullOutPointersAndBadArguments) {
    unsigned count = 0;
    CUdevice devs[1];
    auto get_devices = SYM(cuGLGetDevices, "cuGLGetDevices_v2");
    EXPECT_EQ(get_devices(nullptr, devs, 1, CU_GL_DEVICE_LIST_ALL),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(get_devices(&count, nullptr, 1, CU_GL_DEVICE_LIST_ALL),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(get_devices(&count, devs, 1, static_cast<CUGLDeviceList>(0)),
              CUDA_ERROR_INVALID_VALUE);
    // No room asked for, no array needed.
    EXPECT_EQ(get_devices(&count, nullptr, 0, CU_GL_DEVICE_LIST_NEXT_FRAME),
              CUDA_ERROR_INVALID_GRAPHICS_CONTEXT);

    EXPECT_EQ(SYM(cuGraphicsGLRegisterBuffer,
                  "cuGraphicsGLRegisterBuffer")(nullptr, 1, 0),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(SYM(cuGraphicsEGLRegisterImage,
                  "cuGraphicsEGLRegisterImage")(nullptr, nullptr, 0),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(SYM(cuGraphicsVDPAURegisterVideoSurface,
                  "cuGraphicsVDPAURegisterVideoSurface")(nullptr, 1, 0),
              CUDA_ERROR_INVALID_VALUE);
    size_t size;
    CUdeviceptr dptr;
    EXPECT_EQ(
        SYM(cuGLMapBufferObject, "cuGLMapBufferObject_v2")(nullptr, &size, 1),
        CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(
        SYM(cuGLMapBufferObject, "cuGLMapBufferObject_v2")(&dptr, nullptr, 1),
        CUDA_ERROR_INVALID_VALUE);
    CUcontext made = nullptr;
    EXPECT_EQ(SYM(cuGLCtxCreate, "cuGLCtxCreate_v2")(nullptr, 0, 0),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(SYM(cuGLCtxCreate, "cuGLCtxCreate_v2")(&made, 0, 1000),
              CUDA_ERROR_INVALID_DEVICE);
    CUeglStreamConnection out;
    EXPECT_EQ(SYM(cuEGLStreamConsumerConnect,
                  "cuEGLStreamConsumerConnect")(nullptr, nullptr),
              CUDA_ERROR_INVALID_VALUE);
    // A NULL connection pointer is a connection that cannot exist.
    EXPECT_EQ(SYM(cuEGLStreamConsumerDisconnect,
                  "cuEGLStreamConsumerDisconnect")(nullptr),
              CUDA_ERROR_INVALID_HANDLE);
    EXPECT_EQ(SYM(cuEGLStreamConsumerAcquireFrame,
                  "cuEGLStreamConsumerAcquireFrame")(&out, nullptr, nullptr, 0),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(SYM(cuEGLStreamProducerReturnFrame,
                  "cuEGLStreamProducerReturnFrame")(&out, nullptr, nullptr),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(
        SYM(cuGraphicsResourceGetMappedEglFrame,
            "cuGraphicsResourceGetMappedEglFrame")(nullptr, nullptr, 0, 0),
        CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(SYM(cuEventCreateFromEGLSync,
                  "cuEventCreateFromEGLSync")(nullptr, nullptr, 0),
              CUDA_ERROR_INVALID_VALUE);
    CUdevice dev;
    EXPECT_EQ(SYM(cuVDPAUGetDevice, "cuVDPAUGetDevice")(nullptr, 1, nullptr),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(SYM(cuVDPAUGetDevice, "cuVDPAUGetDevice")(&dev, 1, nullptr),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(SYM(cuVDPAUCtxCreate, "cuVDPAUCtxCreate_v2")(&made, 0, 1000, 1,
                                                           nullptr),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(made, nullptr);
}

// The log line of a refusal names the call and what is missing.
UMF_TEST_CHILD(interop_log) {
    cuda_test_child_stderr_to_socket(sock);
    const cuda_test_driver_t *cu = cuda_test_child_setup(argc, argv, true);
    CHILD_ASSERT(cu != nullptr);
    CUcontext ctx;
    CHILD_CU(cu->cuDevicePrimaryCtxRetain(&ctx, 0));
    CHILD_CU(cu->cuCtxPushCurrent_v2(ctx));
    unsigned count;
    CHILD_EXPECT(SYM(cuGLGetDevices, "cuGLGetDevices_v2")(
                     &count, nullptr, 0, CU_GL_DEVICE_LIST_ALL) ==
                 CUDA_ERROR_INVALID_GRAPHICS_CONTEXT);
    CUgraphicsResource res;
    CHILD_EXPECT(SYM(cuGraphicsGLRegisterImage, "cuGraphicsGLRegisterImage")(
                     &res, 5, GL_TEXTURE_2D, 0) == CUDA_ERROR_INVALID_HANDLE);
    CHILD_CU(cu->cuCtxPopCurrent_v2(nullptr));
    CHILD_CU(cu->cuDevicePrimaryCtxRelease_v2(0));
    return 0;
}

TEST_F(Interop, TheLogNamesTheFunction) {
    int status = -1;
    std::string out;
    ASSERT_TRUE(cuda_test_run_child("interop_log", {}, &status, &out));
    EXPECT_EQ(status, 0) << out;
    for (const char *want :
         {"cuGLGetDevices_v2: no current OpenGL context",
          "cuGraphicsGLRegisterImage: GL image 0x5 is not valid: the "
          "emulated driver has no OpenGL"}) {
        EXPECT_NE(out.find(want), std::string::npos) << want << "\n" << out;
    }
}

} // namespace

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The interop headers' entry points (refused; cuda_mock_refuse.c):
// cudaGL.h (OpenGL), cudaEGL.h (EGL images, streams and syncs) and
// cudaVDPAU.h (VDPAU). There is no OpenGL, EGL or VDPAU driver behind the
// emulated devices, so none of those APIs' objects can be handed to this
// driver. A real libcuda exports these functions whether a display exists
// or not, and clients such as ffmpeg look them all up when they load the
// library; so they are exported here too, with the headers' signatures
// (the headers are included, so the compiler checks every definition),
// and refuse with results the headers document for each:
//
//   - cuInit first (CUDA_ERROR_NOT_INITIALIZED), NULL out-pointers
//     CUDA_ERROR_INVALID_VALUE, a current context where the header lists
//     CUDA_ERROR_INVALID_CONTEXT for a call that works in one;
//   - registering an object of the other API (a GL buffer or image, an
//     EGL image or stream, a VDPAU surface): no such object can exist,
//     CUDA_ERROR_INVALID_HANDLE;
//   - the devices of the current GL context: there is none,
//     CUDA_ERROR_INVALID_GRAPHICS_CONTEXT with a count of 0;
//   - the deprecated buffer-object calls (cuGLMapBufferObject ...): no
//     buffer can have been registered, CUDA_ERROR_INVALID_VALUE (or the
//     header's CUDA_ERROR_INVALID_HANDLE for cuGLSetBufferObjectMapFlags);
//   - an EGL sync or a VDPAU device, which the headers take as values
//     (CUDA_ERROR_INVALID_VALUE);
//   - cuGLInit, cuGLCtxCreate and cuGLRegisterBufferObject, for which the
//     headers list no result that says "no OpenGL": CUDA_ERROR_NOT_SUPPORTED,
//     this driver's refusal of what it cannot emulate.

#include "cuda_mock_core.h"

#include <cudaEGL.h>
#include <cudaGL.h>
#include <vdpau/vdpau.h> // cudaVDPAU.h needs it first

#include <cudaVDPAU.h>

#include "mock_log.h"

// Refusals check what they can and ignore the rest.
#pragma GCC diagnostic ignored "-Wunused-parameter"

// A foreign object (`what`: "GL buffer", "EGL stream" ...) that cannot
// exist here: logged once, answered with `code`.
static CUresult no_object(const char *call, const char *what, uintptr_t id,
                          const char *api, CUresult code) {
    UMF_MOCK_LOG_ERROR("%s: %s %#llx is not valid: the emulated driver has "
                       "no %s",
                       call, what, (unsigned long long)id, api);
    return code;
}

// CUDA_SUCCESS when the calling thread has a current context.
static CUresult need_context(void) {
    cuda_mock_ctx_t *ctx;
    return cuda_mock_ctx_current(&ctx);
}

// A registration: the out-pointer, a current context, then the object.
static CUresult refuse_register(const char *call, CUgraphicsResource *out,
                                const char *what, uintptr_t id,
                                const char *api) {
    if (out == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = need_context();
    if (r != CUDA_SUCCESS) {
        return r;
    }
    return no_object(call, what, id, api, CUDA_ERROR_INVALID_HANDLE);
}

// ---------------------------------------------------------------------------
// OpenGL (cudaGL.h)

#define GL "OpenGL"

CUDA_MOCK_API CUresult cuGraphicsGLRegisterBuffer(
    CUgraphicsResource *pCudaResource, GLuint buffer, unsigned int Flags) {
    CUDA_MOCK_ENTER(cuGraphicsGLRegisterBuffer);
    return refuse_register(__func__, pCudaResource, "GL buffer", buffer, GL);
}

CUDA_MOCK_API CUresult
cuGraphicsGLRegisterImage(CUgraphicsResource *pCudaResource, GLuint image,
                          GLenum target, unsigned int Flags) {
    CUDA_MOCK_ENTER(cuGraphicsGLRegisterImage);
    return refuse_register(__func__, pCudaResource, "GL image", image, GL);
}

static CUresult gl_get_devices(const char *call, unsigned int *count,
                               CUdevice *devices, unsigned int capacity,
                               CUGLDeviceList list) {
    if (count == NULL || (devices == NULL && capacity > 0) ||
        (list != CU_GL_DEVICE_LIST_ALL &&
         list != CU_GL_DEVICE_LIST_CURRENT_FRAME &&
         list != CU_GL_DEVICE_LIST_NEXT_FRAME)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    *count = 0;
    UMF_MOCK_LOG_ERROR("%s: no current OpenGL context: the emulated driver "
                       "has no " GL,
                       call);
    return CUDA_ERROR_INVALID_GRAPHICS_CONTEXT;
}

CUDA_MOCK_API CUresult cuGLGetDevices_v2(unsigned int *pCudaDeviceCount,
                                         CUdevice *pCudaDevices,
                                         unsigned int cudaDeviceCount,
                                         CUGLDeviceList deviceList) {
    CUDA_MOCK_ENTER(cuGLGetDevices_v2);
    return gl_get_devices(__func__, pCudaDeviceCount, pCudaDevices,
                          cudaDeviceCount, deviceList);
}

// CUDA 4.0's name, same signature.
CUDA_MOCK_API CUresult cuGLGetDevices(unsigned int *pCudaDeviceCount,
                                      CUdevice *pCudaDevices,
                                      unsigned int cudaDeviceCount,
                                      CUGLDeviceList deviceList) {
    CUDA_MOCK_ENTER(cuGLGetDevices);
    return gl_get_devices(__func__, pCudaDeviceCount, pCudaDevices,
                          cudaDeviceCount, deviceList);
}

static CUresult gl_ctx_create(const char *call, CUcontext *pCtx,
                              CUdevice device) {
    if (pCtx == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(device);
    return cuda_mock_refuse(call, "no " GL " context to share");
}

CUDA_MOCK_API CUresult cuGLCtxCreate_v2(CUcontext *pCtx, unsigned int Flags,
                                        CUdevice device) {
    CUDA_MOCK_ENTER(cuGLCtxCreate_v2);
    return gl_ctx_create(__func__, pCtx, device);
}

CUDA_MOCK_API CUresult cuGLCtxCreate(CUcontext *pCtx, unsigned int Flags,
                                     CUdevice device) {
    CUDA_MOCK_ENTER(cuGLCtxCreate);
    return gl_ctx_create(__func__, pCtx, device);
}

CUDA_MOCK_API CUresult cuGLInit(void) {
    CUDA_MOCK_ENTER(cuGLInit);
    return cuda_mock_refuse(__func__, "no " GL);
}

CUDA_MOCK_API CUresult cuGLRegisterBufferObject(GLuint buffer) {
    CUDA_MOCK_ENTER(cuGLRegisterBufferObject);
    CUresult r = need_context();
    if (r != CUDA_SUCCESS) {
        return r;
    }
    return cuda_mock_refuse(__func__, "no " GL " buffer can exist");
}

// A deprecated call on a buffer object: a current context, then the
// buffer, which no cuGLRegisterBufferObject can have registered.
static CUresult gl_buffer(const char *call, GLuint buffer, CUresult code) {
    CUresult r = need_context();
    if (r != CUDA_SUCCESS) {
        return r;
    }
    return no_object(call, "registered GL buffer", buffer, GL, code);
}

static CUresult gl_map(const char *call, const void *dptr, const void *size,
                       GLuint buffer) {
    if (dptr == NULL || size == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return gl_buffer(call, buffer, CUDA_ERROR_INVALID_VALUE);
}

CUDA_MOCK_API CUresult cuGLMapBufferObject_v2(CUdeviceptr *dptr, size_t *size,
                                              GLuint buffer) {
    CUDA_MOCK_ENTER(cuGLMapBufferObject_v2);
    return gl_map(__func__, dptr, size, buffer);
}

CUDA_MOCK_API CUresult cuGLMapBufferObject_v2_ptds(CUdeviceptr *dptr,
                                                   size_t *size,
                                                   GLuint buffer) {
    CUDA_MOCK_ENTER(cuGLMapBufferObject_v2_ptds);
    return gl_map(__func__, dptr, size, buffer);
}

// CUDA 3's ABI, with a 32-bit device pointer and size.
CUDA_MOCK_API CUresult cuGLMapBufferObject(CUdeviceptr_v1 *dptr,
                                           unsigned int *size, GLuint buffer) {
    CUDA_MOCK_ENTER(cuGLMapBufferObject);
    return gl_map(__func__, dptr, size, buffer);
}

CUDA_MOCK_API CUresult cuGLMapBufferObjectAsync_v2(CUdeviceptr *dptr,
                                                   size_t *size, GLuint buffer,
                                                   CUstream hStream) {
    CUDA_MOCK_ENTER(cuGLMapBufferObjectAsync_v2);
    return gl_map(__func__, dptr, size, buffer);
}

CUDA_MOCK_API CUresult cuGLMapBufferObjectAsync_v2_ptsz(CUdeviceptr *dptr,
                                                        size_t *size,
                                                        GLuint buffer,
                                                        CUstream hStream) {
    CUDA_MOCK_ENTER(cuGLMapBufferObjectAsync_v2_ptsz);
    return gl_map(__func__, dptr, size, buffer);
}

CUDA_MOCK_API CUresult cuGLMapBufferObjectAsync(CUdeviceptr_v1 *dptr,
                                                unsigned int *size,
                                                GLuint buffer,
                                                CUstream hStream) {
    CUDA_MOCK_ENTER(cuGLMapBufferObjectAsync);
    return gl_map(__func__, dptr, size, buffer);
}

CUDA_MOCK_API CUresult cuGLUnmapBufferObject(GLuint buffer) {
    CUDA_MOCK_ENTER(cuGLUnmapBufferObject);
    return gl_buffer(__func__, buffer, CUDA_ERROR_INVALID_VALUE);
}

CUDA_MOCK_API CUresult cuGLUnmapBufferObjectAsync(GLuint buffer,
                                                  CUstream hStream) {
    CUDA_MOCK_ENTER(cuGLUnmapBufferObjectAsync);
    return gl_buffer(__func__, buffer, CUDA_ERROR_INVALID_VALUE);
}

CUDA_MOCK_API CUresult cuGLUnregisterBufferObject(GLuint buffer) {
    CUDA_MOCK_ENTER(cuGLUnregisterBufferObject);
    return gl_buffer(__func__, buffer, CUDA_ERROR_INVALID_VALUE);
}

CUDA_MOCK_API CUresult cuGLSetBufferObjectMapFlags(GLuint buffer,
                                                   unsigned int Flags) {
    CUDA_MOCK_ENTER(cuGLSetBufferObjectMapFlags);
    return gl_buffer(__func__, buffer, CUDA_ERROR_INVALID_HANDLE);
}

// ---------------------------------------------------------------------------
// EGL (cudaEGL.h)

#define EGL "EGL"

CUDA_MOCK_API CUresult cuGraphicsEGLRegisterImage(
    CUgraphicsResource *pCudaResource, EGLImageKHR image, unsigned int flags) {
    CUDA_MOCK_ENTER(cuGraphicsEGLRegisterImage);
    return refuse_register(__func__, pCudaResource, "EGL image",
                           (uintptr_t)image, EGL);
}

// Connecting to a stream: the connection out-pointer, a current context,
// then the stream.
static CUresult egl_connect(const char *call, CUeglStreamConnection *conn,
                            EGLStreamKHR stream) {
    if (conn == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = need_context();
    if (r != CUDA_SUCCESS) {
        return r;
    }
    return no_object(call, "EGL stream", (uintptr_t)stream, EGL,
                     CUDA_ERROR_INVALID_HANDLE);
}

// A connection: none can have been made.
static CUresult egl_connection(const char *call,
                               const CUeglStreamConnection *conn) {
    return no_object(call, "EGL stream connection",
                     conn == NULL ? 0 : (uintptr_t)*conn, EGL,
                     CUDA_ERROR_INVALID_HANDLE);
}

CUDA_MOCK_API CUresult cuEGLStreamConsumerConnect(CUeglStreamConnection *conn,
                                                  EGLStreamKHR stream) {
    CUDA_MOCK_ENTER(cuEGLStreamConsumerConnect);
    return egl_connect(__func__, conn, stream);
}

CUDA_MOCK_API CUresult cuEGLStreamConsumerConnectWithFlags(
    CUeglStreamConnection *conn, EGLStreamKHR stream, unsigned int flags) {
    CUDA_MOCK_ENTER(cuEGLStreamConsumerConnectWithFlags);
    return egl_connect(__func__, conn, stream);
}

CUDA_MOCK_API CUresult cuEGLStreamProducerConnect(CUeglStreamConnection *conn,
                                                  EGLStreamKHR stream,
                                                  EGLint width, EGLint height) {
    CUDA_MOCK_ENTER(cuEGLStreamProducerConnect);
    return egl_connect(__func__, conn, stream);
}

CUDA_MOCK_API CUresult
cuEGLStreamConsumerDisconnect(CUeglStreamConnection *conn) {
    CUDA_MOCK_ENTER(cuEGLStreamConsumerDisconnect);
    return egl_connection(__func__, conn);
}

CUDA_MOCK_API CUresult
cuEGLStreamProducerDisconnect(CUeglStreamConnection *conn) {
    CUDA_MOCK_ENTER(cuEGLStreamProducerDisconnect);
    return egl_connection(__func__, conn);
}

CUDA_MOCK_API CUresult cuEGLStreamConsumerAcquireFrame(
    CUeglStreamConnection *conn, CUgraphicsResource *pCudaResource,
    CUstream *pStream, unsigned int timeout) {
    CUDA_MOCK_ENTER(cuEGLStreamConsumerAcquireFrame);
    if (pCudaResource == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return egl_connection(__func__, conn);
}

CUDA_MOCK_API CUresult cuEGLStreamConsumerReleaseFrame(
    CUeglStreamConnection *conn, CUgraphicsResource pCudaResource,
    CUstream *pStream) {
    CUDA_MOCK_ENTER(cuEGLStreamConsumerReleaseFrame);
    return egl_connection(__func__, conn);
}

CUDA_MOCK_API CUresult cuEGLStreamProducerPresentFrame(
    CUeglStreamConnection *conn, CUeglFrame eglframe, CUstream *pStream) {
    CUDA_MOCK_ENTER(cuEGLStreamProducerPresentFrame);
    return egl_connection(__func__, conn);
}

CUDA_MOCK_API CUresult cuEGLStreamProducerReturnFrame(
    CUeglStreamConnection *conn, CUeglFrame *eglframe, CUstream *pStream) {
    CUDA_MOCK_ENTER(cuEGLStreamProducerReturnFrame);
    if (eglframe == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return egl_connection(__func__, conn);
}

// A graphics resource cannot exist (cuda_mock_graphics.c).
CUDA_MOCK_API CUresult cuGraphicsResourceGetMappedEglFrame(
    CUeglFrame *eglFrame, CUgraphicsResource resource, unsigned int index,
    unsigned int mipLevel) {
    CUDA_MOCK_ENTER(cuGraphicsResourceGetMappedEglFrame);
    if (eglFrame == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return cuda_mock_refuse_handle(__func__, "graphics resource",
                                   (uintptr_t)resource,
                                   "the emulated driver has no " EGL);
}

CUDA_MOCK_API CUresult cuEventCreateFromEGLSync(CUevent *phEvent,
                                                EGLSyncKHR eglSync,
                                                unsigned int flags) {
    CUDA_MOCK_ENTER(cuEventCreateFromEGLSync);
    if (phEvent == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = need_context();
    if (r != CUDA_SUCCESS) {
        return r;
    }
    return no_object(__func__, "EGL sync", (uintptr_t)eglSync, EGL,
                     CUDA_ERROR_INVALID_VALUE);
}

// ---------------------------------------------------------------------------
// VDPAU (cudaVDPAU.h)

#define VDPAU "VDPAU"

CUDA_MOCK_API CUresult cuVDPAUGetDevice(CUdevice *pDevice, VdpDevice vdpDevice,
                                        VdpGetProcAddress *vdpGetProcAddress) {
    CUDA_MOCK_ENTER(cuVDPAUGetDevice);
    if (pDevice == NULL || vdpGetProcAddress == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    return no_object(__func__, "VDPAU device", vdpDevice, VDPAU,
                     CUDA_ERROR_INVALID_VALUE);
}

static CUresult vdpau_ctx_create(const char *call, CUcontext *pCtx,
                                 CUdevice device, VdpDevice vdpDevice,
                                 VdpGetProcAddress *vdpGetProcAddress) {
    if (pCtx == NULL || vdpGetProcAddress == NULL) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_MOCK_CHECK_DEVICE(device);
    return no_object(call, "VDPAU device", vdpDevice, VDPAU,
                     CUDA_ERROR_INVALID_VALUE);
}

CUDA_MOCK_API CUresult
cuVDPAUCtxCreate_v2(CUcontext *pCtx, unsigned int flags, CUdevice device,
                    VdpDevice vdpDevice, VdpGetProcAddress *vdpGetProcAddress) {
    CUDA_MOCK_ENTER(cuVDPAUCtxCreate_v2);
    return vdpau_ctx_create(__func__, pCtx, device, vdpDevice,
                            vdpGetProcAddress);
}

CUDA_MOCK_API CUresult cuVDPAUCtxCreate(CUcontext *pCtx, unsigned int flags,
                                        CUdevice device, VdpDevice vdpDevice,
                                        VdpGetProcAddress *vdpGetProcAddress) {
    CUDA_MOCK_ENTER(cuVDPAUCtxCreate);
    return vdpau_ctx_create(__func__, pCtx, device, vdpDevice,
                            vdpGetProcAddress);
}

CUDA_MOCK_API CUresult cuGraphicsVDPAURegisterVideoSurface(
    CUgraphicsResource *pCudaResource, VdpVideoSurface vdpSurface,
    unsigned int flags) {
    CUDA_MOCK_ENTER(cuGraphicsVDPAURegisterVideoSurface);
    return refuse_register(__func__, pCudaResource, "VDPAU video surface",
                           vdpSurface, VDPAU);
}

CUDA_MOCK_API CUresult cuGraphicsVDPAURegisterOutputSurface(
    CUgraphicsResource *pCudaResource, VdpOutputSurface vdpSurface,
    unsigned int flags) {
    CUDA_MOCK_ENTER(cuGraphicsVDPAURegisterOutputSurface);
    return refuse_register(__func__, pCudaResource, "VDPAU output surface",
                           vdpSurface, VDPAU);
}

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Example: two processes share device memory through the CUDA driver's
// virtual memory management, as NCCL and PyTorch's expandable segments do,
// with streams, asynchronous copies and events for the data.
//
// The producer makes a physical allocation that may be exported as a POSIX
// file descriptor (cuMemCreate), maps it into a reserved address range
// (cuMemAddressReserve, cuMemMap, cuMemSetAccess), fills it from pinned
// host memory with an asynchronous copy on a stream, and times that copy
// with two events. It then exports the allocation as a file descriptor
// (cuMemExportToShareableHandle) and passes the descriptor to the consumer
// over a Unix socket (SCM_RIGHTS). The consumer imports it
// (cuMemImportFromShareableHandle), maps it into its own address range,
// reads the producer's message with an asynchronous copy, writes its answer
// and says so; the producer reads the answer. Only the driver's copy calls
// touch the memory, so the program runs unchanged on a GPU.
//
// The consumer is a child made with fork() before either process calls
// the driver (a process must not use CUDA in a child it forked after
// cuInit).
//
// Build:   cc cuda_vmm_two_processes.c -I/usr/local/cuda/include -lcuda
// Run without a GPU, on umf-gpu's emulated driver:
//          eval "$(umf-gpu-mock-env)" && ./a.out

#ifndef _GNU_SOURCE
#define _GNU_SOURCE // MSG_CMSG_CLOEXEC
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda.h>

#define MESSAGE_MAX 64

#define CHECK(call)                                                            \
    do {                                                                       \
        CUresult check_r_ = (call);                                            \
        if (check_r_ != CUDA_SUCCESS) {                                        \
            const char *check_name_ = NULL;                                    \
            cuGetErrorName(check_r_, &check_name_);                            \
            fprintf(stderr, "%s:%d: %s failed: %s\n", role, __LINE__, #call,   \
                    check_name_ != NULL ? check_name_ : "unknown error");      \
            return 1;                                                          \
        }                                                                      \
    } while (0)

// ---- Passing a file descriptor over a Unix socket -------------------------

static int send_fd(int sock, int fd, uint64_t size) {
    struct iovec iov = {.iov_base = &size, .iov_len = sizeof(size)};
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int))];
    } control;
    memset(&control, 0, sizeof(control));
    struct msghdr msg = {.msg_iov = &iov,
                         .msg_iovlen = 1,
                         .msg_control = control.buf,
                         .msg_controllen = sizeof(control.buf)};
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof(int));
    return sendmsg(sock, &msg, 0) == (ssize_t)sizeof(size) ? 0 : -1;
}

static int recv_fd(int sock, uint64_t *size) {
    struct iovec iov = {.iov_base = size, .iov_len = sizeof(*size)};
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int))];
    } control;
    struct msghdr msg = {.msg_iov = &iov,
                         .msg_iovlen = 1,
                         .msg_control = control.buf,
                         .msg_controllen = sizeof(control.buf)};
    if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != (ssize_t)sizeof(*size)) {
        return -1;
    }
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    if (c == NULL || c->cmsg_level != SOL_SOCKET ||
        c->cmsg_type != SCM_RIGHTS) {
        return -1;
    }
    int fd;
    memcpy(&fd, CMSG_DATA(c), sizeof(int));
    return fd;
}

// ---- What both processes do -------------------------------------------------

static const char *role = "producer";

static CUmemAllocationProp device_prop(void) {
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof(prop));
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    return prop;
}

// Maps `handle` (size bytes) into a new reservation, read-write for device 0.
static int map_rw(CUmemGenericAllocationHandle handle, size_t size,
                  CUdeviceptr *out) {
    CHECK(cuMemAddressReserve(out, size, 0, 0, 0));
    CHECK(cuMemMap(*out, size, 0, handle, 0));
    CUmemAccessDesc access;
    memset(&access, 0, sizeof(access));
    access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    access.location.id = 0;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    CHECK(cuMemSetAccess(*out, size, &access, 1));
    return 0;
}

static int unmap(CUdeviceptr ptr, size_t size) {
    CHECK(cuMemUnmap(ptr, size));
    CHECK(cuMemAddressFree(ptr, size));
    return 0;
}

// ---- The consumer -----------------------------------------------------------

static int consumer(int sock) {
    role = "consumer";
    uint64_t size = 0;
    int fd = recv_fd(sock, &size);
    if (fd < 0) {
        fprintf(stderr, "consumer: no file descriptor from the producer\n");
        return 1;
    }
    CUdevice dev;
    CUcontext ctx;
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK(cuCtxSetCurrent(ctx));
    CUstream stream;
    CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));

    CUmemGenericAllocationHandle handle;
    CHECK(cuMemImportFromShareableHandle(
        &handle, (void *)(intptr_t)fd,
        CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
    close(fd); // the import keeps what it needs
    CUdeviceptr ptr;
    if (map_rw(handle, size, &ptr) != 0) {
        return 1;
    }
    char *message;
    CHECK(cuMemHostAlloc((void **)&message, MESSAGE_MAX, 0));
    CHECK(cuMemcpyDtoHAsync_v2(message, ptr, MESSAGE_MAX, stream));
    CHECK(cuStreamSynchronize(stream));
    printf("consumer: read \"%s\" through its own mapping\n", message);
    int ok = strcmp(message, "hello from the producer") == 0;
    snprintf(message, MESSAGE_MAX, "hello from the consumer");
    // The answer goes to the second half of the memory.
    CHECK(cuMemcpyHtoDAsync_v2(ptr + size / 2, message, MESSAGE_MAX, stream));
    CHECK(cuStreamSynchronize(stream));

    if (unmap(ptr, size) != 0) {
        return 1;
    }
    CHECK(cuMemRelease(handle));
    CHECK(cuMemFreeHost(message));
    CHECK(cuStreamDestroy_v2(stream));
    CHECK(cuDevicePrimaryCtxRelease_v2(dev));
    char done = ok ? 'Y' : 'N';
    if (write(sock, &done, 1) != 1) {
        return 1;
    }
    return ok ? 0 : 1;
}

// ---- The producer -----------------------------------------------------------

static int producer(int sock) {
    CUdevice dev;
    CUcontext ctx;
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    int vmm = 0, posix = 0;
    CHECK(cuDeviceGetAttribute(
        &vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, dev));
    CHECK(cuDeviceGetAttribute(
        &posix, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED,
        dev));
    if (!vmm || !posix) {
        fprintf(stderr, "producer: device 0 cannot share VMM memory as a file "
                        "descriptor\n");
        return 1;
    }
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK(cuCtxSetCurrent(ctx));
    CUstream stream;
    CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    CUevent start, stop;
    CHECK(cuEventCreate(&start, CU_EVENT_DEFAULT));
    CHECK(cuEventCreate(&stop, CU_EVENT_DEFAULT));

    // The allocation: one granule, exportable as a file descriptor.
    CUmemAllocationProp prop = device_prop();
    size_t size;
    CHECK(cuMemGetAllocationGranularity(&size, &prop,
                                        CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    CUmemGenericAllocationHandle handle;
    CHECK(cuMemCreate(&handle, size, &prop, 0));
    CUdeviceptr ptr;
    if (map_rw(handle, size, &ptr) != 0) {
        return 1;
    }
    printf("producer: %zu bytes of device memory mapped at 0x%llx\n", size,
           (unsigned long long)ptr);

    // Fill it from pinned memory, asynchronously, timed by two events.
    char *message;
    CHECK(cuMemHostAlloc((void **)&message, MESSAGE_MAX, 0));
    snprintf(message, MESSAGE_MAX, "hello from the producer");
    CHECK(cuMemsetD8Async(ptr, 0, size, stream));
    CHECK(cuEventRecord(start, stream));
    CHECK(cuMemcpyHtoDAsync_v2(ptr, message, MESSAGE_MAX, stream));
    CHECK(cuEventRecord(stop, stream));
    CHECK(cuEventSynchronize(stop));
    float ms = 0;
    CHECK(cuEventElapsedTime(&ms, start, stop));
    printf("producer: wrote its message with an async copy (%.3f ms)\n",
           (double)ms);

    // Share it: a file descriptor over the socket.
    int fd = -1;
    CHECK(cuMemExportToShareableHandle(
        &fd, handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    if (send_fd(sock, fd, size) != 0) {
        fprintf(stderr, "producer: cannot pass the descriptor\n");
        return 1;
    }
    close(fd); // the consumer has its own now
    printf("producer: passed the allocation to the consumer as fd %d\n", fd);

    char done = 0;
    if (read(sock, &done, 1) != 1 || done != 'Y') {
        fprintf(stderr, "producer: the consumer failed\n");
        return 1;
    }
    CHECK(cuMemcpyDtoHAsync_v2(message, ptr + size / 2, MESSAGE_MAX, stream));
    CHECK(cuStreamSynchronize(stream));
    printf("producer: read \"%s\"\n", message);
    int ok = strcmp(message, "hello from the consumer") == 0;

    if (unmap(ptr, size) != 0) {
        return 1;
    }
    CHECK(cuMemRelease(handle));
    CHECK(cuMemFreeHost(message));
    CHECK(cuEventDestroy_v2(start));
    CHECK(cuEventDestroy_v2(stop));
    CHECK(cuStreamDestroy_v2(stream));
    CHECK(cuDevicePrimaryCtxRelease_v2(dev));
    return ok ? 0 : 1;
}

int main(void) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        perror("socketpair");
        return 1;
    }
    fflush(stdout);
    pid_t pid = fork(); // before any CUDA call
    if (pid < 0) {
        perror("fork");
        return 1;
    }
    if (pid == 0) {
        close(sv[0]);
        // exit, not _exit: the driver's end-of-process work runs.
        exit(consumer(sv[1]));
    }
    close(sv[1]);
    int status = producer(sv[0]);
    close(sv[0]);
    int child = 0;
    if (waitpid(pid, &child, 0) != pid || !WIFEXITED(child) ||
        WEXITSTATUS(child) != 0) {
        fprintf(stderr, "producer: the consumer ended badly\n");
        status = 1;
    }
    printf("cuda_vmm_two_processes: %s\n", status == 0 ? "passed" : "FAILED");
    return status;
}

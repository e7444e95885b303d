// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Example: two processes share a device buffer (IPC), with the Level Zero
// provider.
//
// The producer allocates a device buffer, writes a message into it and
// sends the provider's IPC data to the consumer; the consumer opens the
// data as a pointer to the same device memory, reads the message, writes
// an answer and closes it; the producer reads the answer. The IPC data is
// plain bytes: any channel carries it (here a socket; a pipe, a file or MPI
// do as well). With the CUDA provider only the setup differs (cuda_alloc.c).
//
// Build against an installed umf-gpu:
//   cc ipc_two_processes.c $(pkg-config --cflags --libs umf-gpu) -lze_loader
// Run without a GPU, on umf-gpu's emulated driver:
//   eval "$(umf-gpu-mock-env)" && ./a.out

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <level_zero/ze_api.h>
#include <umf/memory_provider.h>
#include <umf/providers/provider_level_zero.h>

#define SIZE (64 << 10)
#define MESSAGE_MAX 64

// What each process sets up for itself: device 0, a context, a command
// list for copies, and a DEVICE provider.
typedef struct gpu_t {
    ze_context_handle_t context;
    ze_device_handle_t device;
    ze_command_list_handle_t list;
    umf_memory_provider_handle_t provider;
} gpu_t;

static void gpu_close(gpu_t *gpu) {
    umfMemoryProviderDestroy(gpu->provider);
    if (gpu->list != NULL) {
        zeCommandListDestroy(gpu->list);
    }
    if (gpu->context != NULL) {
        zeContextDestroy(gpu->context);
    }
}

static int gpu_open(gpu_t *gpu) {
    memset(gpu, 0, sizeof(*gpu));
    ze_driver_handle_t driver = NULL;
    uint32_t drivers = 1, devices = 1;
    if (zeInit(0) != ZE_RESULT_SUCCESS ||
        zeDriverGet(&drivers, &driver) != ZE_RESULT_SUCCESS || drivers == 0 ||
        zeDeviceGet(driver, &devices, &gpu->device) != ZE_RESULT_SUCCESS ||
        devices == 0) {
        fprintf(stderr, "no Level Zero driver or device\n");
        return -1;
    }
    ze_context_desc_t context_desc = {.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    ze_command_queue_desc_t queue_desc = {
        .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
        .mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
    };
    if (zeContextCreate(driver, &context_desc, &gpu->context) !=
            ZE_RESULT_SUCCESS ||
        zeCommandListCreateImmediate(gpu->context, gpu->device, &queue_desc,
                                     &gpu->list) != ZE_RESULT_SUCCESS) {
        fprintf(stderr, "cannot make a context and a command list\n");
        gpu_close(gpu);
        return -1;
    }
    umf_level_zero_memory_provider_params_handle_t params = NULL;
    umf_result_t res = umfLevelZeroMemoryProviderParamsCreate(&params);
    if (res == UMF_RESULT_SUCCESS) {
        umfLevelZeroMemoryProviderParamsSetContext(params, gpu->context);
        umfLevelZeroMemoryProviderParamsSetDevice(params, gpu->device);
        umfLevelZeroMemoryProviderParamsSetMemoryType(params,
                                                      UMF_MEMORY_TYPE_DEVICE);
        res = umfMemoryProviderCreate(umfLevelZeroMemoryProviderOps(), params,
                                      &gpu->provider);
        umfLevelZeroMemoryProviderParamsDestroy(params);
    }
    if (res != UMF_RESULT_SUCCESS) {
        fprintf(stderr, "cannot create the provider: umf_result_t %d\n",
                (int)res);
        gpu_close(gpu);
        return -1;
    }
    return 0;
}

// Copies with the driver (device memory is not for the host to touch).
static int copy(gpu_t *gpu, void *dst, const void *src, size_t size) {
    if (zeCommandListAppendMemoryCopy(gpu->list, dst, src, size, NULL, 0,
                                      NULL) != ZE_RESULT_SUCCESS) {
        fprintf(stderr, "zeCommandListAppendMemoryCopy failed\n");
        return -1;
    }
    return 0;
}

static int send_all(int sock, const void *buf, size_t size) {
    return send(sock, buf, size, MSG_NOSIGNAL) == (ssize_t)size ? 0 : -1;
}

static int recv_all(int sock, void *buf, size_t size) {
    return recv(sock, buf, size, MSG_WAITALL) == (ssize_t)size ? 0 : -1;
}

static int consumer(int sock) {
    gpu_t gpu;
    if (gpu_open(&gpu) != 0) {
        return 1;
    }
    int status = 1;
    size_t ipc_size = 0;
    void *ipc_data = NULL, *remote = NULL;
    char text[MESSAGE_MAX];

    // The IPC data, as many bytes as the producer's provider said.
    if (recv_all(sock, &ipc_size, sizeof(ipc_size)) != 0 || ipc_size == 0 ||
        ipc_size > 4096 || (ipc_data = malloc(ipc_size)) == NULL ||
        recv_all(sock, ipc_data, ipc_size) != 0) {
        fprintf(stderr, "consumer: no IPC data\n");
        goto out;
    }
    // Opening maps the producer's allocation here; opening the same data
    // again returns the same pointer, and the last close unmaps it.
    umf_result_t res =
        umfMemoryProviderOpenIPCHandle(gpu.provider, ipc_data, &remote);
    if (res != UMF_RESULT_SUCCESS) {
        fprintf(stderr, "consumer: umfMemoryProviderOpenIPCHandle: %d\n",
                (int)res);
        goto out;
    }
    if (copy(&gpu, text, remote, sizeof(text)) == 0) {
        text[sizeof(text) - 1] = '\0';
        printf("consumer (process %d) read: %s\n", (int)getpid(), text);
        if (strncmp(text, "hello from", 10) == 0) {
            snprintf(text, sizeof(text), "hello back from process %d",
                     (int)getpid());
            status = copy(&gpu, remote, text, sizeof(text)) == 0 ? 0 : 1;
        } else {
            fprintf(stderr, "consumer: not the producer's message\n");
        }
    }
    res = umfMemoryProviderCloseIPCHandle(gpu.provider, remote, SIZE);
    if (res != UMF_RESULT_SUCCESS) {
        fprintf(stderr, "consumer: umfMemoryProviderCloseIPCHandle: %d\n",
                (int)res);
        status = 1;
    }
out:
    // Tell the producer we are done (or failed) with its memory.
    if (send_all(sock, &(char){(char)status}, 1) != 0) {
        status = 1;
    }
    free(ipc_data);
    gpu_close(&gpu);
    return status;
}

static int producer(int sock) {
    gpu_t gpu;
    if (gpu_open(&gpu) != 0) {
        return 1;
    }
    int status = 1;
    void *buffer = NULL, *ipc_data = NULL;
    size_t ipc_size = 0;
    char text[MESSAGE_MAX] = {0}, done = 1;

    umf_result_t res = umfMemoryProviderAlloc(gpu.provider, SIZE, 0, &buffer);
    if (res != UMF_RESULT_SUCCESS) {
        fprintf(stderr, "producer: umfMemoryProviderAlloc: %d\n", (int)res);
        goto close_gpu;
    }
    snprintf(text, sizeof(text), "hello from process %d", (int)getpid());
    if (copy(&gpu, buffer, text, sizeof(text)) != 0) {
        goto free_buffer;
    }

    // The IPC data: its size comes from the provider.
    res = umfMemoryProviderGetIPCHandleSize(gpu.provider, &ipc_size);
    if (res != UMF_RESULT_SUCCESS || (ipc_data = malloc(ipc_size)) == NULL) {
        fprintf(stderr, "producer: umfMemoryProviderGetIPCHandleSize: %d\n",
                (int)res);
        goto free_buffer;
    }
    res = umfMemoryProviderGetIPCHandle(gpu.provider, buffer, SIZE, ipc_data);
    if (res != UMF_RESULT_SUCCESS) {
        fprintf(stderr, "producer: umfMemoryProviderGetIPCHandle: %d\n",
                (int)res);
        goto free_ipc_data;
    }
    // The buffer must stay allocated until the consumer has closed it.
    if (send_all(sock, &ipc_size, sizeof(ipc_size)) != 0 ||
        send_all(sock, ipc_data, ipc_size) != 0 ||
        recv_all(sock, &done, 1) != 0 || done != 0) {
        fprintf(stderr, "producer: the consumer failed\n");
        goto put_handle;
    }
    if (copy(&gpu, text, buffer, sizeof(text)) == 0) {
        text[sizeof(text) - 1] = '\0';
        printf("producer (process %d) read: %s\n", (int)getpid(), text);
        status = strncmp(text, "hello back", 10) == 0 ? 0 : 1;
    }

put_handle:
    umfMemoryProviderPutIPCHandle(gpu.provider, ipc_data);
free_ipc_data:
    free(ipc_data);
free_buffer:
    umfMemoryProviderFree(gpu.provider, buffer, SIZE);
close_gpu:
    gpu_close(&gpu);
    return status;
}

int main(void) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) {
        perror("socketpair");
        return 1;
    }
    // Fork before either process uses the GPU: each sets up its own.
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 1;
    }
    if (pid == 0) {
        close(sv[0]);
        return consumer(sv[1]);
    }
    close(sv[1]);
    // The consumer duplicates a file descriptor of the producer
    // (pidfd_getfd), which needs ptrace permission over it. Where Yama
    // restricts ptrace to ancestors (/proc/sys/kernel/yama/ptrace_scope = 1),
    // the producer allows its consumer by name. Without Yama this fails
    // harmlessly.
    prctl(PR_SET_PTRACER, (unsigned long)pid, 0, 0, 0);

    int status = producer(sv[0]);
    close(sv[0]);
    int wstatus = 0;
    if (waitpid(pid, &wstatus, 0) != pid || !WIFEXITED(wstatus) ||
        WEXITSTATUS(wstatus) != 0) {
        fprintf(stderr, "the consumer failed (wait status 0x%x)\n", wstatus);
        status = 1;
    }
    return status;
}

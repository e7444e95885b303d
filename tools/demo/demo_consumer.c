// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The consumer: this program started again by the producer, with its end of
// a socket. It receives the IPC data, opens the device buffer through its
// own provider, checks what the producer wrote, writes new data, closes the
// handle, and answers with its timed steps. The data moves by the driver's
// copy calls only.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "demo.h"
#include "sock_io.h"

int demo_consumer_main(const demo_driver_t *driver, int sock) {
    demo_reply_t reply = {.magic = DEMO_MAGIC};
    demo_steps_t *steps = &reply.steps;
    demo_why_t why = {{0}};
    umf_memory_provider_handle_t provider = NULL;
    unsigned char *host = NULL;
    void *mapped = NULL;
    bool opened = false;
    int ret = 0;

    demo_request_t req;
    unsigned char ipc_data[DEMO_IPC_DATA_MAX];
    if (sock_recv_all(sock, &req, sizeof(req)) != 0 ||
        req.magic != DEMO_MAGIC || req.ipc_size == 0 ||
        req.ipc_size > sizeof(ipc_data) || req.buffer_size == 0 ||
        req.buffer_size != (size_t)req.buffer_size ||
        sock_recv_all(sock, ipc_data, req.ipc_size) != 0) {
        fprintf(stderr, "umf-gpu-demo consumer: no valid request from the "
                        "producer\n");
        return 1;
    }
    size_t size = (size_t)req.buffer_size;

    char info[512], device[256];
    demo_step_begin(steps, "open driver, context on device 0");
    ret = demo_step_end(
        steps, driver->open(info, sizeof(info), device, sizeof(device), &why),
        &why);
    if (ret != 0) {
        goto reply;
    }

    demo_step_begin(steps, "create provider");
    ret = demo_step_end(steps, driver->create_provider(&provider, &why), &why);
    if (ret != 0) {
        goto release;
    }

    demo_step_begin(steps, "open IPC handle");
    umf_result_t res =
        umfMemoryProviderOpenIPCHandle(provider, ipc_data, &mapped);
    ret =
        demo_step_end(steps,
                      res == UMF_RESULT_SUCCESS
                          ? 0
                          : demo_why_umf(&why, "umfMemoryProviderOpenIPCHandle",
                                         res, provider, NULL),
                      &why);
    if (ret != 0) {
        goto release;
    }
    opened = true;

    host = malloc(size);
    if (host == NULL) {
        demo_step_begin(steps, "verify buffer");
        ret = demo_step_end(
            steps, demo_why(&why, "out of host memory (%zu bytes)", size),
            &why);
        goto close_handle;
    }
    demo_step_begin(steps, "verify buffer (copy device -> host)");
    ret = driver->to_host(host, mapped, size, &why);
    if (ret == 0) {
        ret = demo_pattern_check(host, size, req.seed_in, &why);
    }
    if (demo_step_end(steps, ret, &why) != 0) {
        goto close_handle;
    }

    // A kernel on the device changes the buffer where the driver runs one;
    // a copy does elsewhere.
    demo_step_begin(steps, "change buffer (kernel on the device)");
    int changed = driver->pattern_kernel != NULL
                      ? driver->pattern_kernel(mapped, size, req.seed_out, &why)
                      : 1;
    if (changed == 1) {
        demo_step_rename(steps, "change buffer (copy host -> device)");
        demo_pattern_fill(host, size, req.seed_out);
        changed = driver->to_device(mapped, host, size, &why);
    }
    ret = demo_step_end(steps, changed, &why);

close_handle:
    if (opened) {
        demo_step_begin(steps, "close IPC handle");
        res = umfMemoryProviderCloseIPCHandle(provider, mapped, size);
        int closed = res == UMF_RESULT_SUCCESS
                         ? 0
                         : demo_why_umf(&why, "umfMemoryProviderCloseIPCHandle",
                                        res, provider, NULL);
        demo_step_end(steps, closed, &why);
        ret = ret != 0 ? ret : closed;
    }
release:
    demo_step_begin(steps, "release provider, context");
    umfMemoryProviderDestroy(provider);
    int released = demo_step_end(steps, driver->close(&why), &why);
    ret = ret != 0 ? ret : released;
reply:
    free(host);
    if (sock_send_all(sock, &reply, sizeof(reply)) != 0) {
        fprintf(stderr, "umf-gpu-demo consumer: cannot answer the producer\n");
        return 1;
    }
    return ret == 0 ? 0 : 1;
}

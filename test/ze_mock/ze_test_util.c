// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "ze_test_util.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <unistd.h>

#include "c_test.h"

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static ze_result_t init_result;

static void init(void) {
    init_result = zeInit(0);
}

static bool env_is(const char *name, const char *value) {
    const char *v = getenv(name);
    return v != NULL && strcmp(v, value) == 0;
}

bool ze_test_intercept(void) {
    return env_is("ZE_ENABLE_LOADER_INTERCEPT", "1");
}

bool ze_test_validation_layer(void) {
    return env_is("ZE_ENABLE_VALIDATION_LAYER", "1") &&
           getenv("ZE_ENABLE_PARAMETER_VALIDATION") != NULL;
}

bool ze_test_validated(void) {
    return ze_test_control_if_emulated() != NULL || ze_test_validation_layer();
}

bool ze_test_null_handles_checked(void) {
    return ze_test_validated() && !ze_test_intercept();
}

void *ze_test_driver_symbol(const char *name) {
    const char *path = getenv("ZE_ENABLE_ALT_DRIVERS");
    void *lib = path != NULL ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
    void *sym = lib != NULL ? dlsym(lib, name) : NULL;
    if (lib != NULL) {
        dlclose(lib); // the loader keeps it loaded
    }
    return sym;
}

bool ze_test_driver_table(const char *getter, ze_api_version_t version,
                          void *table) {
    typedef ze_result_t(ZE_APICALL * getter_fn)(ze_api_version_t, void *);
    void *sym = ze_test_driver_symbol(getter);
    getter_fn fn;
    memcpy(&fn, &sym, sizeof(fn));
    return sym != NULL && fn(version, table) == ZE_RESULT_SUCCESS;
}

bool ze_test_direct_tables(void) {
    return ze_test_control_if_emulated() != NULL && !ze_test_intercept();
}

bool ze_test_ipc_capable(void) {
    return !env_is("UMF_GPU_MOCK_MEMORY", "malloc");
}

bool ze_test_arena(void) {
    const char *v = getenv("UMF_GPU_MOCK_MEMORY");
    return v == NULL || v[0] == '\0' || strcmp(v, "arena") == 0;
}

bool ze_test_setup(ze_test_t *t) {
    memset(t, 0, sizeof(*t));
    pthread_once(&init_once, init);
    if (init_result != ZE_RESULT_SUCCESS) {
        umf_c_test_fail(__FILE__, __LINE__, "zeInit: 0x%x", init_result);
        return false;
    }
    uint32_t n = 1;
    t->device_count = ZE_TEST_MAX_DEVICES;
    ze_context_desc_t cd = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ze_command_queue_desc_t qd = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                  NULL,
                                  0,
                                  0,
                                  0,
                                  ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
                                  ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    if (zeDriverGet(&n, &t->driver) != ZE_RESULT_SUCCESS || n != 1 ||
        zeDeviceGet(t->driver, &t->device_count, t->devices) !=
            ZE_RESULT_SUCCESS ||
        t->device_count == 0 ||
        zeContextCreate(t->driver, &cd, &t->ctx) != ZE_RESULT_SUCCESS ||
        zeCommandListCreateImmediate(t->ctx, t->devices[0], &qd, &t->list) !=
            ZE_RESULT_SUCCESS) {
        umf_c_test_fail(__FILE__, __LINE__,
                        "cannot set up driver, devices, "
                        "context and command list");
        return false;
    }
    return true;
}

void ze_test_teardown(ze_test_t *t) {
    if (t->list != NULL) {
        UMF_EXPECT_EQ(zeCommandListDestroy(t->list), ZE_RESULT_SUCCESS);
    }
    if (t->ctx != NULL) {
        UMF_EXPECT_EQ(zeContextDestroy(t->ctx), ZE_RESULT_SUCCESS);
    }
    memset(t, 0, sizeof(*t));
}

static umf_test_mock_control_t control;
static bool control_ok;
static pthread_once_t control_once = PTHREAD_ONCE_INIT;

static void load_control(void) {
    pthread_once(&init_once, init); // the loader loads the driver
    control_ok =
        umf_test_mock_control_load(&control, getenv("ZE_ENABLE_ALT_DRIVERS"),
                                   "umfZeMock") == 0;
}

const umf_test_mock_control_t *ze_test_control_if_emulated(void) {
    pthread_once(&control_once, load_control);
    return control_ok ? &control : NULL;
}

const umf_test_mock_control_t *ze_test_control(void) {
    pthread_once(&control_once, load_control);
    if (!control_ok) {
        umf_c_test_fail(__FILE__, __LINE__,
                        "no control API: is ZE_ENABLE_ALT_DRIVERS the "
                        "emulated driver?");
        return NULL;
    }
    return &control;
}

int ze_test_take_handle_fd(char data[64], int pid) {
    int fd;
    memcpy(&fd, data, sizeof(fd));
    int pidfd = pidfd_open(pid, 0);
    int mine = pidfd < 0 ? -1 : pidfd_getfd(pidfd, fd, 0);
    if (pidfd >= 0) {
        close(pidfd);
    }
    if (mine >= 0) {
        memcpy(data, &mine, sizeof(mine));
    }
    return mine;
}

ze_command_list_handle_t
ze_test_immediate(ze_test_t *t, ze_command_queue_mode_t mode, uint32_t flags) {
    ze_command_queue_desc_t d = {
        ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, flags, mode,
        ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t l = NULL;
    UMF_EXPECT_EQ(zeCommandListCreateImmediate(t->ctx, t->devices[0], &d, &l),
                  ZE_RESULT_SUCCESS);
    return l;
}

ze_event_pool_handle_t ze_test_events(ze_test_t *t, uint32_t count,
                                      ze_event_pool_flags_t flags,
                                      ze_event_handle_t *e) {
    ze_event_pool_desc_t pd = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                               ZE_EVENT_POOL_FLAG_HOST_VISIBLE | flags, count};
    ze_event_pool_handle_t pool = NULL;
    memset(e, 0, count * sizeof(*e));
    UMF_EXPECT_EQ(zeEventPoolCreate(t->ctx, &pd, 0, NULL, &pool),
                  ZE_RESULT_SUCCESS);
    for (uint32_t i = 0; pool != NULL && i < count; i++) {
        ze_event_desc_t ed = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, i,
                              ZE_EVENT_SCOPE_FLAG_HOST,
                              ZE_EVENT_SCOPE_FLAG_HOST};
        if (zeEventCreate(pool, &ed, &e[i]) != ZE_RESULT_SUCCESS) {
            umf_c_test_fail(__FILE__, __LINE__, "zeEventCreate(%u)", i);
            ze_test_events_free(pool, i, e);
            return NULL;
        }
    }
    return pool;
}

void ze_test_events_free(ze_event_pool_handle_t pool, uint32_t count,
                         ze_event_handle_t *e) {
    for (uint32_t i = 0; i < count; i++) {
        if (e[i] != NULL) {
            UMF_EXPECT_EQ(zeEventDestroy(e[i]), ZE_RESULT_SUCCESS);
        }
    }
    UMF_EXPECT_EQ(zeEventPoolDestroy(pool), ZE_RESULT_SUCCESS);
}

ze_result_t ze_test_copy(ze_test_t *t, void *dst, const void *src,
                         size_t size) {
    return zeCommandListAppendMemoryCopy(t->list, dst, src, size, NULL, 0,
                                         NULL);
}

void *ze_test_alloc_device(ze_test_t *t, size_t size, unsigned dev) {
    ze_device_mem_alloc_desc_t d = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
                                    NULL, 0, 0};
    void *p = NULL;
    ze_result_t r = zeMemAllocDevice(t->ctx, &d, size, 0, t->devices[dev], &p);
    if (r != ZE_RESULT_SUCCESS) {
        umf_c_test_fail(__FILE__, __LINE__, "zeMemAllocDevice(%zu): 0x%x", size,
                        r);
        return NULL;
    }
    return p;
}

bool ze_test_fill_byte(ze_test_t *t, void *dst, unsigned char byte,
                       size_t size) {
    unsigned char *buf = malloc(size);
    if (buf == NULL) {
        return false;
    }
    memset(buf, byte, size);
    ze_result_t r = ze_test_copy(t, dst, buf, size);
    free(buf);
    return r == ZE_RESULT_SUCCESS;
}

bool ze_test_all_bytes(ze_test_t *t, const void *src, unsigned char byte,
                       size_t size) {
    unsigned char *buf = malloc(size);
    if (buf == NULL) {
        return false;
    }
    bool ok = ze_test_copy(t, buf, src, size) == ZE_RESULT_SUCCESS;
    for (size_t i = 0; ok && i < size; i++) {
        ok = buf[i] == byte;
    }
    free(buf);
    return ok;
}

ze_image_desc_t ze_test_image_2d(void) {
    ze_image_desc_t d = {ZE_STRUCTURE_TYPE_IMAGE_DESC,
                         NULL,
                         0,
                         ZE_IMAGE_TYPE_2D,
                         {ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8,
                          ZE_IMAGE_FORMAT_TYPE_UNORM, ZE_IMAGE_FORMAT_SWIZZLE_R,
                          ZE_IMAGE_FORMAT_SWIZZLE_G, ZE_IMAGE_FORMAT_SWIZZLE_B,
                          ZE_IMAGE_FORMAT_SWIZZLE_A},
                         64,
                         64,
                         1,
                         0,
                         0};
    return d;
}

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Conformance of the Level Zero 1.6 entry points for memory and IPC
// (zeMemPutIpcHandle, zeEventPoolPutIpcHandle, the IPC handle / fd
// conversion pair, zeDriverGetLastErrorDescription). The Debian loader
// (1.8.12, API 1.4) has none of them, so these tests ask the emulated
// driver's table getters for them directly, as a 1.6 loader (v1.10.0 and
// later) would, and call them with the driver's own handles (not in the
// loader's intercept mode, where handles are the loader's).

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c_test.h"
#include "ze_mock_ddi.h"
#include "ze_test_util.h"

typedef ze_result_t(ZE_APICALL *get_driver_fn)(ze_api_version_t,
                                               ze_mock_driver_dditable_t *);
typedef ze_result_t(ZE_APICALL *get_mem_fn)(ze_api_version_t,
                                            ze_mock_mem_dditable_t *);
typedef ze_result_t(ZE_APICALL *get_event_pool_fn)(
    ze_api_version_t, ze_mock_event_pool_dditable_t *);
typedef ze_result_t(ZE_APICALL *get_mem_exp_fn)(ze_api_version_t,
                                                ze_mock_mem_exp_dditable_t *);

typedef struct getters_t {
    get_driver_fn driver;
    get_mem_fn mem;
    get_event_pool_fn event_pool;
    get_mem_exp_fn mem_exp;
} getters_t;

typedef struct hooks_t {
    ze_mock_driver_dditable_t driver;
    ze_mock_mem_dditable_t mem;
    ze_mock_event_pool_dditable_t event_pool;
    ze_mock_mem_exp_dditable_t mem_exp;
} hooks_t;

// The emulated driver's getters of the tables 1.6 extends; false if one is
// missing.
static bool get_getters(getters_t *g) {
    g->driver =
        (get_driver_fn)ze_test_driver_symbol("zeGetDriverProcAddrTable");
    g->mem = (get_mem_fn)ze_test_driver_symbol("zeGetMemProcAddrTable");
    g->event_pool =
        (get_event_pool_fn)ze_test_driver_symbol("zeGetEventPoolProcAddrTable");
    g->mem_exp =
        (get_mem_exp_fn)ze_test_driver_symbol("zeGetMemExpProcAddrTable");
    return g->driver != NULL && g->mem != NULL && g->event_pool != NULL &&
           g->mem_exp != NULL;
}

// The 1.6 tables of the emulated driver; false (after the teardown) where
// there is none to ask or the handles are the loader's.
static bool hooks_setup(ze_test_t *t, hooks_t *h) {
    memset(h, 0, sizeof(*h));
    if (ze_test_control_if_emulated() == NULL || ze_test_intercept()) {
        ze_test_teardown(t);
        return false;
    }
    getters_t g;
    if (!get_getters(&g) ||
        g.driver(ZE_MOCK_API_VERSION_1_6, &h->driver) != ZE_RESULT_SUCCESS ||
        g.mem(ZE_MOCK_API_VERSION_1_6, &h->mem) != ZE_RESULT_SUCCESS ||
        g.event_pool(ZE_MOCK_API_VERSION_1_6, &h->event_pool) !=
            ZE_RESULT_SUCCESS ||
        g.mem_exp(ZE_MOCK_API_VERSION_1_6, &h->mem_exp) != ZE_RESULT_SUCCESS) {
        umf_c_test_fail(__FILE__, __LINE__, "the driver's 1.6 tables");
        ze_test_teardown(t);
        return false;
    }
    return true;
}

#define HOOKS_SETUP(t, h)                                                      \
    ZE_TEST_SETUP(t);                                                          \
    hooks_t h;                                                                 \
    if (!hooks_setup(&t, &h)) {                                                \
        return;                                                                \
    }

// A table an older loader passes has no room for the 1.6 entries: a getter
// asked for 1.4 writes nothing past the 1.4 table; asked for 1.6, it fills
// them. A version of another major number is refused.
UMF_C_TEST(ZeHooks, GettersFillThe16EntriesOnlyFor16) {
    if (ze_test_control_if_emulated() == NULL) {
        return;
    }
    ZE_TEST_SETUP(t);
    const void *canary = (const void *)(uintptr_t)0x5ca1ab1eu;
    getters_t g;
    UMF_ASSERT(get_getters(&g));
    get_driver_fn gd = g.driver;
    get_mem_fn gm = g.mem;
    get_event_pool_fn ge = g.event_pool;
    get_mem_exp_fn gx = g.mem_exp;
    ze_mock_driver_dditable_t dt;
    ze_mock_mem_dditable_t mt;
    ze_mock_event_pool_dditable_t et;
    ze_mock_mem_exp_dditable_t xt;
    memset(&dt, 0, sizeof(dt));
    memset(&mt, 0, sizeof(mt));
    memset(&et, 0, sizeof(et));
    memcpy(&dt.pfnGetLastErrorDescription, &canary, sizeof(canary));
    memcpy(&mt.pfnPutIpcHandle, &canary, sizeof(canary));
    memcpy(&et.pfnPutIpcHandle, &canary, sizeof(canary));
    memcpy(&xt.pfnGetIpcHandleFromFileDescriptorExp, &canary, sizeof(canary));
    memcpy(&xt.pfnGetFileDescriptorFromIpcHandleExp, &canary, sizeof(canary));
    UMF_EXPECT_EQ(gd(ZE_API_VERSION_1_4, &dt), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(gm(ZE_API_VERSION_1_4, &mt), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(ge(ZE_API_VERSION_1_4, &et), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(gx(ZE_API_VERSION_1_4, &xt), ZE_RESULT_SUCCESS);
    UMF_EXPECT(dt.v1_4.pfnGetProperties != NULL); // the 1.4 part is filled
    UMF_EXPECT(mt.v1_4.pfnFreeExt != NULL);
    UMF_EXPECT(et.v1_4.pfnCloseIpcHandle != NULL);
    UMF_EXPECT((const void *)dt.pfnGetLastErrorDescription == canary);
    UMF_EXPECT((const void *)mt.pfnPutIpcHandle == canary);
    UMF_EXPECT((const void *)et.pfnPutIpcHandle == canary);
    UMF_EXPECT((const void *)xt.pfnGetIpcHandleFromFileDescriptorExp == canary);
    UMF_EXPECT((const void *)xt.pfnGetFileDescriptorFromIpcHandleExp == canary);
    UMF_EXPECT_EQ(gd(ZE_MOCK_API_VERSION_1_6, &dt), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(gm(ZE_MOCK_API_VERSION_1_6, &mt), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(ge(ZE_MOCK_API_VERSION_1_6, &et), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(gx(ZE_MOCK_API_VERSION_1_6, &xt), ZE_RESULT_SUCCESS);
    UMF_EXPECT((const void *)dt.pfnGetLastErrorDescription != canary &&
               dt.pfnGetLastErrorDescription != NULL);
    UMF_EXPECT((const void *)mt.pfnPutIpcHandle != canary &&
               mt.pfnPutIpcHandle != NULL);
    UMF_EXPECT((const void *)et.pfnPutIpcHandle != canary &&
               et.pfnPutIpcHandle != NULL);
    UMF_EXPECT(xt.pfnGetIpcHandleFromFileDescriptorExp != NULL &&
               (const void *)xt.pfnGetIpcHandleFromFileDescriptorExp != canary);
    UMF_EXPECT(xt.pfnGetFileDescriptorFromIpcHandleExp != NULL &&
               (const void *)xt.pfnGetFileDescriptorFromIpcHandleExp != canary);
    UMF_EXPECT_EQ(gm(ZE_MAKE_VERSION(2, 0), &mt),
                  ZE_RESULT_ERROR_UNSUPPORTED_VERSION);
    UMF_EXPECT_EQ(gx(ZE_MOCK_API_VERSION_1_6, NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    ze_test_teardown(&t);
}

static int handle_fd(const ze_ipc_mem_handle_t *h) {
    int fd;
    memcpy(&fd, h->data, sizeof(fd));
    return fd;
}

static bool fd_open(int fd) {
    return fcntl(fd, F_GETFD) >= 0;
}

static int64_t live(umf_gpu_mock_live_t what) {
    return ze_test_control()->get_live_count(what);
}

// "Returns an IPC memory handle to the driver ... it may close the file
// descriptor contained in the IPC handle ... This call does not free the
// original allocation": the fd goes, the allocation and its imports stay,
// the next zeMemGetIpcHandle makes a new handle.
UMF_C_TEST(zeMemPutIpcHandle, ReleasesTheFdNotTheAllocation) {
    HOOKS_SETUP(t, h);
    if (!ze_test_ipc_capable()) {
        ze_test_teardown(&t);
        return;
    }
    enum { N = 20000 };
    void *dev = ze_test_alloc_device(&t, N, 0);
    UMF_ASSERT(dev != NULL);
    UMF_ASSERT(ze_test_fill_byte(&t, dev, 0x51, N));
    int64_t handles = live(UMF_GPU_MOCK_LIVE_IPC_HANDLES);
    ze_ipc_mem_handle_t ipc, again;
    UMF_ASSERT_EQ(zeMemGetIpcHandle(t.ctx, dev, &ipc), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_IPC_HANDLES), handles + 1);
    void *imported;
    UMF_ASSERT_EQ(zeMemOpenIpcHandle(t.ctx, t.devices[1], ipc, 0, &imported),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(h.mem.pfnPutIpcHandle(t.ctx, ipc), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_IPC_HANDLES), handles);
    if (ze_test_arena()) {
        UMF_EXPECT(!fd_open(handle_fd(&ipc))); // the driver's duplicate
    }
    // Repeated, and from another context: nothing left to release.
    ze_context_desc_t cd = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ze_context_handle_t other;
    UMF_ASSERT_EQ(zeContextCreate(t.driver, &cd, &other), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(h.mem.pfnPutIpcHandle(t.ctx, ipc), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(h.mem.pfnPutIpcHandle(other, ipc), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_IPC_HANDLES), handles);
    // The allocation and the import are untouched; a new handle works.
    UMF_EXPECT(ze_test_all_bytes(&t, imported, 0x51, N));
    UMF_ASSERT_EQ(zeMemGetIpcHandle(t.ctx, dev, &again), ZE_RESULT_SUCCESS);
    UMF_EXPECT(fd_open(handle_fd(&again)));
    void *second;
    UMF_ASSERT_EQ(zeMemOpenIpcHandle(t.ctx, t.devices[0], again, 0, &second),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT(ze_test_all_bytes(&t, second, 0x51, N));
    // The exporter frees: the imports keep their memory (quarantine).
    UMF_EXPECT_EQ(zeMemFree(t.ctx, dev), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(live(UMF_GPU_MOCK_LIVE_IPC_HANDLES), handles);
    void *reuse[4];
    for (int i = 0; i < 4; i++) { // would take the freed block if it could
        reuse[i] = ze_test_alloc_device(&t, N, 0);
        UMF_ASSERT(reuse[i] != NULL);
        UMF_EXPECT(ze_test_fill_byte(&t, reuse[i], 0, N));
    }
    UMF_EXPECT(ze_test_all_bytes(&t, imported, 0x51, N));
    for (int i = 0; i < 4; i++) {
        UMF_EXPECT_EQ(zeMemFree(t.ctx, reuse[i]), ZE_RESULT_SUCCESS);
    }
    UMF_EXPECT_EQ(zeMemCloseIpcHandle(t.ctx, imported), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeMemCloseIpcHandle(t.ctx, second), ZE_RESULT_SUCCESS);
    // A put after the free has nothing to release either.
    UMF_EXPECT_EQ(h.mem.pfnPutIpcHandle(t.ctx, again), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeContextDestroy(other), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// INVALID_NULL_HANDLE `nullptr == hContext`; bytes that are no handle of
// this driver are refused.
UMF_C_TEST(zeMemPutIpcHandle, RefusesWhatIsNoHandle) {
    HOOKS_SETUP(t, h);
    ze_ipc_mem_handle_t junk;
    memset(&junk, 0x3c, sizeof(junk));
    UMF_EXPECT_EQ(h.mem.pfnPutIpcHandle(NULL, junk),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    UMF_EXPECT_EQ(h.mem.pfnPutIpcHandle(t.ctx, junk),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ze_test_teardown(&t);
}

// The conversion pair: "Gets the file descriptor contained in an IPC memory
// handle", and "Creates an IPC memory handle out of a file descriptor"
// obtained that way.
UMF_C_TEST(zeMemGetFileDescriptorFromIpcHandleExp, RoundTrip) {
    HOOKS_SETUP(t, h);
    if (!ze_test_ipc_capable()) {
        ze_test_teardown(&t);
        return;
    }
    void *dev = ze_test_alloc_device(&t, 4096, 1);
    UMF_ASSERT(dev != NULL);
    ze_ipc_mem_handle_t ipc, back;
    UMF_ASSERT_EQ(zeMemGetIpcHandle(t.ctx, dev, &ipc), ZE_RESULT_SUCCESS);
    uint64_t fd = UINT64_MAX;
    UMF_ASSERT_EQ(
        h.mem_exp.pfnGetFileDescriptorFromIpcHandleExp(t.ctx, ipc, &fd),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(fd, (uint64_t)handle_fd(&ipc));
    UMF_ASSERT_EQ(
        h.mem_exp.pfnGetIpcHandleFromFileDescriptorExp(t.ctx, fd, &back),
        ZE_RESULT_SUCCESS);
    UMF_EXPECT(memcmp(&ipc, &back, sizeof(ipc)) == 0);
    // An fd that is no export of this process, and bytes that are no handle.
    UMF_EXPECT_EQ(h.mem_exp.pfnGetIpcHandleFromFileDescriptorExp(
                      t.ctx, STDERR_FILENO, &back),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(h.mem_exp.pfnGetIpcHandleFromFileDescriptorExp(
                      t.ctx, UINT64_MAX, &back),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ze_ipc_mem_handle_t junk;
    memset(&junk, 0, sizeof(junk));
    UMF_EXPECT_EQ(
        h.mem_exp.pfnGetFileDescriptorFromIpcHandleExp(t.ctx, junk, &fd),
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
    // NULL arguments.
    UMF_EXPECT_EQ(
        h.mem_exp.pfnGetFileDescriptorFromIpcHandleExp(t.ctx, ipc, NULL),
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    UMF_EXPECT_EQ(
        h.mem_exp.pfnGetIpcHandleFromFileDescriptorExp(t.ctx, fd, NULL),
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    UMF_EXPECT_EQ(
        h.mem_exp.pfnGetFileDescriptorFromIpcHandleExp(NULL, ipc, &fd),
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    // Once put back (arena mode: the fd is closed), the fd is no export.
    UMF_EXPECT_EQ(h.mem.pfnPutIpcHandle(t.ctx, ipc), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(
        h.mem_exp.pfnGetIpcHandleFromFileDescriptorExp(t.ctx, fd, &back),
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, dev), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

UMF_C_TEST(zeEventPoolPutIpcHandle, TakesTheDriversHandlesOnly) {
    HOOKS_SETUP(t, h);
    ze_event_pool_desc_t d = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                              ZE_EVENT_POOL_FLAG_IPC, 2};
    ze_event_pool_handle_t pool;
    UMF_ASSERT_EQ(zeEventPoolCreate(t.ctx, &d, 0, NULL, &pool),
                  ZE_RESULT_SUCCESS);
    ze_ipc_event_pool_handle_t ipc, junk;
    UMF_ASSERT_EQ(zeEventPoolGetIpcHandle(pool, &ipc), ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(h.event_pool.pfnPutIpcHandle(t.ctx, ipc), ZE_RESULT_SUCCESS);
    // The pool's memory is its own: it is still shareable.
    ze_event_pool_handle_t opened;
    UMF_EXPECT_EQ(zeEventPoolOpenIpcHandle(t.ctx, ipc, &opened),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT_EQ(zeEventPoolCloseIpcHandle(opened), ZE_RESULT_SUCCESS);
    memset(&junk, 0x77, sizeof(junk));
    UMF_EXPECT_EQ(h.event_pool.pfnPutIpcHandle(t.ctx, junk),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(h.event_pool.pfnPutIpcHandle(NULL, ipc),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    UMF_EXPECT_EQ(zeEventPoolDestroy(pool), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

// "Retrieves a string describing the last error code returned by the
// driver in the current thread": updated by failing calls only, per thread,
// owned by the driver.
typedef struct other_thread_t {
    ze_test_t *t;
    hooks_t *h;
    const char *before, *after;
    char after_text[256];
} other_thread_t;

static void *fail_in_other_thread(void *arg) {
    other_thread_t *o = arg;
    o->h->driver.pfnGetLastErrorDescription(o->t->driver, &o->before);
    int not_allocated;
    zeMemFree(o->t->ctx, &not_allocated);
    o->h->driver.pfnGetLastErrorDescription(o->t->driver, &o->after);
    snprintf(o->after_text, sizeof(o->after_text), "%s", o->after);
    return NULL;
}

UMF_C_TEST(zeDriverGetLastErrorDescription, DescribesThisThreadsLastFailure) {
    HOOKS_SETUP(t, h);
    const char *s = NULL;
    ze_device_mem_alloc_desc_t dd = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
                                     NULL, 0, 0};
    void *p;
    // Past maxMemAllocSize (half of 1G): a failure only the driver sees,
    // also under the validation layer.
    UMF_ASSERT_EQ(zeMemAllocDevice(t.ctx, &dd, 600u << 20, 0, t.devices[0], &p),
                  ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    UMF_ASSERT_EQ(h.driver.pfnGetLastErrorDescription(t.driver, &s),
                  ZE_RESULT_SUCCESS);
    UMF_ASSERT(s != NULL);
    UMF_EXPECT(strstr(s, "zeMemAllocDevice") != NULL);
    UMF_EXPECT(strstr(s, "ZE_RESULT_ERROR_UNSUPPORTED_SIZE") != NULL);
    // A success leaves it.
    void *ok = ze_test_alloc_device(&t, 64, 0);
    UMF_ASSERT(ok != NULL);
    UMF_ASSERT_EQ(h.driver.pfnGetLastErrorDescription(t.driver, &s),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT(strstr(s, "ZE_RESULT_ERROR_UNSUPPORTED_SIZE") != NULL);
    // A failure the driver explains carries the reason.
    UMF_EXPECT_EQ(zeMemFree(t.ctx, (char *)ok + 1),
                  ZE_RESULT_ERROR_INVALID_ARGUMENT);
    UMF_ASSERT_EQ(h.driver.pfnGetLastErrorDescription(t.driver, &s),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT(strstr(s, "zeMemFree: ZE_RESULT_ERROR_INVALID_ARGUMENT: ") == s);
    UMF_EXPECT(strstr(s, "not its start") != NULL);
    // Another thread's failures are its own.
    other_thread_t o = {.t = &t, .h = &h};
    pthread_t th;
    UMF_ASSERT_EQ(pthread_create(&th, NULL, fail_in_other_thread, &o), 0);
    UMF_ASSERT_EQ(pthread_join(th, NULL), 0);
    UMF_EXPECT(o.before != NULL && o.before[0] == '\0');
    UMF_EXPECT(
        strstr(o.after_text, "zeMemFree: ZE_RESULT_ERROR_INVALID_ARGUMENT: ") ==
        o.after_text);
    UMF_EXPECT(strstr(o.after_text, "not an allocation") != NULL);
    UMF_ASSERT_EQ(h.driver.pfnGetLastErrorDescription(t.driver, &s),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT(strstr(s, "zeMemFree: ") == s);
    // INVALID_NULL_HANDLE `nullptr == hDriver`, INVALID_NULL_POINTER
    // `nullptr == ppString`.
    UMF_EXPECT_EQ(h.driver.pfnGetLastErrorDescription(NULL, &s),
                  ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    UMF_EXPECT_EQ(h.driver.pfnGetLastErrorDescription(t.driver, NULL),
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    UMF_ASSERT_EQ(h.driver.pfnGetLastErrorDescription(t.driver, &s),
                  ZE_RESULT_SUCCESS);
    UMF_EXPECT(strstr(s, "zeDriverGetLastErrorDescription: "
                         "ZE_RESULT_ERROR_INVALID_NULL_POINTER") == s);
    UMF_EXPECT_EQ(zeMemFree(t.ctx, ok), ZE_RESULT_SUCCESS);
    ze_test_teardown(&t);
}

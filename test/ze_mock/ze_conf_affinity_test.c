// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Conformance: ZE_AFFINITY_MASK, as Intel's GPU driver implements it (the
// loader leaves it to the driver): the devices the mask names, renumbered
// from 0 in their own order, others hidden. Children started with a mask
// report what zeDeviceGet gives them; devices are told apart by UUID. The
// cases about whole devices run unchanged on a real GPU (expectations from
// the devices this process sees); "N.M" on a device without sub-devices is
// the emulated driver's case.

#include <stdlib.h>
#include <string.h>

#include "c_test.h"
#include "test_child.h"
#include "ze_test_util.h"

enum { MAX_REPORTED = 8 };

typedef struct affinity_report_t {
    uint32_t count;
    ze_device_uuid_t uuid[MAX_REPORTED];
} affinity_report_t;

// argv[0]: the mask ("-" for unset). Reports the devices it sees.
UMF_TEST_CHILD(ze_conf_affinity) {
    if (argc < 1) {
        return 10;
    }
    if (strcmp(argv[0], "-") == 0) {
        unsetenv("ZE_AFFINITY_MASK");
    } else {
        setenv("ZE_AFFINITY_MASK", argv[0], 1);
    }
    if (zeInit(0) != ZE_RESULT_SUCCESS) {
        return 11;
    }
    uint32_t n = 1;
    ze_driver_handle_t driver;
    affinity_report_t r = {0};
    if (zeDriverGet(&n, &driver) != ZE_RESULT_SUCCESS || n != 1 ||
        zeDeviceGet(driver, &r.count, NULL) != ZE_RESULT_SUCCESS) {
        return 12;
    }
    ze_device_handle_t dev[MAX_REPORTED];
    uint32_t got = r.count < MAX_REPORTED ? r.count : MAX_REPORTED;
    if (got > 0 && zeDeviceGet(driver, &got, dev) != ZE_RESULT_SUCCESS) {
        return 13;
    }
    for (uint32_t i = 0; i < got; i++) {
        ze_device_properties_t p = {.stype =
                                        ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
        if (zeDeviceGetProperties(dev[i], &p) != ZE_RESULT_SUCCESS) {
            return 14;
        }
        r.uuid[i] = p.uuid;
    }
    // The visible devices are usable: an allocation on the last one.
    if (got > 0) {
        ze_context_desc_t cd = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
        ze_context_handle_t ctx;
        ze_device_mem_alloc_desc_t dd = {
            ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
        void *p;
        if (zeContextCreate(driver, &cd, &ctx) != ZE_RESULT_SUCCESS ||
            zeMemAllocDevice(ctx, &dd, 4096, 0, dev[got - 1], &p) !=
                ZE_RESULT_SUCCESS ||
            zeMemFree(ctx, p) != ZE_RESULT_SUCCESS ||
            zeContextDestroy(ctx) != ZE_RESULT_SUCCESS) {
            return 15;
        }
    }
    return umf_test_send(sock, &r, sizeof(r)) ? 16 : 0;
}

static bool run_with_mask(const char *mask, affinity_report_t *r) {
    const char *args[] = {mask, NULL};
    umf_test_child_t c;
    if (umf_test_child_start(&c, "ze_conf_affinity", args) != 0) {
        return false;
    }
    memset(r, 0, sizeof(*r));
    bool got = umf_test_recv(c.sock, r, sizeof(*r)) == 0;
    int status = umf_test_child_wait(&c);
    UMF_C_CHECK_(got && status == 0, (void)0,
                 "ZE_AFFINITY_MASK=%s: child status %d", mask, status);
    return got && status == 0;
}

typedef struct mine_t {
    uint32_t count;
    ze_device_uuid_t uuid[MAX_REPORTED];
} mine_t;

static bool my_devices(mine_t *m) {
    ze_test_t t;
    if (!ze_test_setup(&t)) {
        return false;
    }
    m->count = t.device_count < MAX_REPORTED ? t.device_count : MAX_REPORTED;
    for (uint32_t i = 0; i < m->count; i++) {
        ze_device_properties_t p = {.stype =
                                        ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
        if (zeDeviceGetProperties(t.devices[i], &p) != ZE_RESULT_SUCCESS) {
            ze_test_teardown(&t);
            return false;
        }
        m->uuid[i] = p.uuid;
    }
    ze_test_teardown(&t);
    return true;
}

static bool same(const ze_device_uuid_t *a, const ze_device_uuid_t *b) {
    return memcmp(a, b, sizeof(*a)) == 0;
}

// Checks that the child saw exactly the devices at positions `want` (of
// this process's list), in that order.
static void expect_devices(const char *mask, const mine_t *m,
                           const uint32_t *want, uint32_t n) {
    affinity_report_t r;
    if (!run_with_mask(mask, &r)) {
        return;
    }
    UMF_C_CHECK_(r.count == n, (void)0,
                 "ZE_AFFINITY_MASK=%s: %u devices, not %u", mask, r.count, n);
    for (uint32_t i = 0; i < n && i < r.count; i++) {
        UMF_C_CHECK_(same(&r.uuid[i], &m->uuid[want[i]]), (void)0,
                     "ZE_AFFINITY_MASK=%s: device %u is not device %u", mask, i,
                     want[i]);
    }
}

UMF_C_TEST(ZeAffinityMask, WholeDevicesRenumberedInTheirOrder) {
    if (getenv("ZE_AFFINITY_MASK") != NULL) {
        return; // this process runs under a mask already
    }
    mine_t m;
    UMF_ASSERT(my_devices(&m));
    UMF_ASSERT(m.count >= 1);
    const uint32_t first[] = {0}, all[] = {0, 1};
    expect_devices("-", &m, all, m.count < 2 ? m.count : 2);
    expect_devices("", &m, all, m.count < 2 ? m.count : 2);
    expect_devices("0", &m, first, 1);
    if (m.count >= 2) {
        const uint32_t second[] = {1};
        expect_devices("1", &m, second, 1);
        expect_devices("0,1", &m, all, 2);
        expect_devices("1,0", &m, all, 2); // the devices' order, not the mask's
        expect_devices("1,1", &m, second, 1);
    }
    // An index past the last device exposes nothing.
    char past[16];
    snprintf(past, sizeof(past), "%u", m.count);
    expect_devices(past, &m, NULL, 0);
}

// The emulated devices have no sub-devices: "N.0" is device N whole, as
// for a single-tile GPU, "N.M" with M > 0 is nothing; malformed entries
// are ignored.
UMF_C_TEST(ZeAffinityMask, SubDevicesOfDevicesWithoutThem) {
    if (getenv("ZE_AFFINITY_MASK") != NULL ||
        ze_test_control_if_emulated() == NULL) {
        return;
    }
    mine_t m;
    UMF_ASSERT(my_devices(&m));
    UMF_ASSERT_EQ(m.count, 2); // UMF_GPU_MOCK_DEVICES=2
    const uint32_t first[] = {0}, second[] = {1}, all[] = {0, 1};
    expect_devices("1.0", &m, second, 1);
    expect_devices("0.0.0", &m, first, 1);
    expect_devices("0.1", &m, NULL, 0);
    expect_devices("0.1,1", &m, second, 1);
    expect_devices("default", &m, all, 2);
    expect_devices("x,1", &m, second, 1);
    expect_devices("1.,0", &m, first, 1);
    expect_devices(",", &m, NULL, 0);
}

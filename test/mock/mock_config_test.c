// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The configuration parser, on made-up environments.

#include <string.h>

#include "c_test.h"
#include "mock_config.h"

typedef struct fake_env_t {
    const char *names[8];
    const char *values[8];
} fake_env_t;

static const char *fake_lookup(void *ctx, const char *name) {
    fake_env_t *env = ctx;
    for (int i = 0; i < 8 && env->names[i] != NULL; i++) {
        if (strcmp(env->names[i], name) == 0) {
            return env->values[i];
        }
    }
    return NULL;
}

static bool load1(const char *name, const char *value, umf_mock_config_t *cfg,
                  char *err, size_t err_len) {
    fake_env_t env = {{name}, {value}};
    return umf_mock_config_load(cfg, fake_lookup, &env, err, err_len);
}

UMF_C_TEST(MockConfig, Defaults) {
    fake_env_t env = {{NULL}, {NULL}};
    umf_mock_config_t cfg;
    char err[256] = "";
    UMF_ASSERT(umf_mock_config_load(&cfg, fake_lookup, &env, err, sizeof(err)));
    UMF_EXPECT_EQ(cfg.devices, 2);
    UMF_EXPECT_EQ(cfg.subdevices, 0);
    UMF_EXPECT_EQ(cfg.device_mem, 4ull << 30);
    UMF_EXPECT_EQ(cfg.memory, UMF_MOCK_MEMORY_ARENA);
    UMF_EXPECT_EQ(cfg.leaks, UMF_MOCK_LEAKS_REPORT);
    UMF_EXPECT_EQ(cfg.seed, 0);
    UMF_EXPECT(cfg.faults == NULL);
}

UMF_C_TEST(MockConfig, EmptyValuesAreUnset) {
    fake_env_t env = {{"UMF_GPU_MOCK_DEVICES", "UMF_GPU_MOCK_MEMORY"},
                      {"", ""}};
    umf_mock_config_t cfg;
    char err[256];
    UMF_ASSERT(umf_mock_config_load(&cfg, fake_lookup, &env, err, sizeof(err)));
    UMF_EXPECT_EQ(cfg.devices, 2);
    UMF_EXPECT_EQ(cfg.memory, UMF_MOCK_MEMORY_ARENA);
}

UMF_C_TEST(MockConfig, GoodValues) {
    fake_env_t env = {
        {"UMF_GPU_MOCK_DEVICES", "UMF_GPU_MOCK_DEVICE_MEM",
         "UMF_GPU_MOCK_MEMORY", "UMF_GPU_MOCK_LEAKS", "UMF_GPU_MOCK_SEED",
         "UMF_GPU_MOCK_FAULTS"},
        {"7", "512M", "memfd", "strict", "0x10", "zeTestAlloc:1=1"}};
    umf_mock_config_t cfg;
    char err[256];
    UMF_ASSERT(umf_mock_config_load(&cfg, fake_lookup, &env, err, sizeof(err)));
    UMF_EXPECT_EQ(cfg.devices, 7);
    UMF_EXPECT_EQ(cfg.device_mem, 512ull << 20);
    UMF_EXPECT_EQ(cfg.memory, UMF_MOCK_MEMORY_MEMFD);
    UMF_EXPECT_EQ(cfg.leaks, UMF_MOCK_LEAKS_STRICT);
    UMF_EXPECT_EQ(cfg.seed, 16);
    UMF_EXPECT_STREQ(cfg.faults, "zeTestAlloc:1=1");

    umf_mock_config_t c2;
    UMF_EXPECT(load1("UMF_GPU_MOCK_DEVICES", "0", &c2, err, sizeof(err)));
    UMF_EXPECT_EQ(c2.devices, 0);
    UMF_EXPECT(load1("UMF_GPU_MOCK_DEVICES", "64", &c2, err, sizeof(err)));
    UMF_EXPECT(load1("UMF_GPU_MOCK_SUBDEVICES", "8", &c2, err, sizeof(err)));
    UMF_EXPECT_EQ(c2.subdevices, 8);
    UMF_EXPECT(load1("UMF_GPU_MOCK_SUBDEVICES", "0", &c2, err, sizeof(err)));
    UMF_EXPECT_EQ(c2.subdevices, 0);
    UMF_EXPECT(load1("UMF_GPU_MOCK_MEMORY", "malloc", &c2, err, sizeof(err)));
    UMF_EXPECT_EQ(c2.memory, UMF_MOCK_MEMORY_MALLOC);
    UMF_EXPECT(load1("UMF_GPU_MOCK_LEAKS", "off", &c2, err, sizeof(err)));
    UMF_EXPECT_EQ(c2.leaks, UMF_MOCK_LEAKS_OFF);
    UMF_EXPECT(load1("UMF_GPU_MOCK_DEVICE_MEM", "4096", &c2, err, sizeof(err)));
    UMF_EXPECT_EQ(c2.device_mem, 4096);
    UMF_EXPECT(
        load1("UMF_GPU_MOCK_DEVICE_MEM", "4096G", &c2, err, sizeof(err)));
    UMF_EXPECT_EQ(c2.device_mem, 4ull << 40);
}

UMF_C_TEST(MockConfig, BadValuesNameTheVariable) {
    static const struct {
        const char *name, *value;
    } bad[] = {
        {"UMF_GPU_MOCK_DEVICES", "65"},
        {"UMF_GPU_MOCK_DEVICES", "-1"},
        {"UMF_GPU_MOCK_DEVICES", "two"},
        {"UMF_GPU_MOCK_DEVICES", "2 "},
        {"UMF_GPU_MOCK_DEVICES", "99999999999999999999999"},
        {"UMF_GPU_MOCK_DEVICE_MEM", "4095"},
        {"UMF_GPU_MOCK_DEVICE_MEM", "4097G"},
        {"UMF_GPU_MOCK_DEVICE_MEM", "4T"},
        {"UMF_GPU_MOCK_DEVICE_MEM", "1.5G"},
        {"UMF_GPU_MOCK_DEVICE_MEM", "G"},
        {"UMF_GPU_MOCK_DEVICE_MEM", "0x10G"},
        {"UMF_GPU_MOCK_DEVICE_MEM", "18446744073709551615G"},
        {"UMF_GPU_MOCK_MEMORY", "Arena"},
        {"UMF_GPU_MOCK_MEMORY", "shm"},
        {"UMF_GPU_MOCK_LEAKS", "yes"},
        {"UMF_GPU_MOCK_SUBDEVICES", "9"},
        {"UMF_GPU_MOCK_SUBDEVICES", "two"},
        {"UMF_GPU_MOCK_SEED", "-5"},
        {"UMF_GPU_MOCK_SEED", "0x"},
        {"UMF_GPU_MOCK_SEED", "18446744073709551616"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        umf_mock_config_t cfg;
        char err[256] = "";
        UMF_EXPECT(!load1(bad[i].name, bad[i].value, &cfg, err, sizeof(err)));
        UMF_EXPECT(strstr(err, bad[i].name) != NULL);
    }
}

UMF_C_TEST(MockConfig, ParseSize) {
    uint64_t v;
    UMF_EXPECT(umf_mock_parse_size("0", &v) && v == 0);
    UMF_EXPECT(umf_mock_parse_size("1k", &v) && v == 1024);
    UMF_EXPECT(umf_mock_parse_size("3M", &v) && v == 3ull << 20);
    UMF_EXPECT(umf_mock_parse_size("5g", &v) && v == 5ull << 30);
    UMF_EXPECT(umf_mock_parse_size("17179869183G", &v) && v == 17179869183ull
                                                                   << 30);
    UMF_EXPECT(!umf_mock_parse_size("17179869184G", &v));
    UMF_EXPECT(!umf_mock_parse_size("", &v));
    UMF_EXPECT(!umf_mock_parse_size("K", &v));
    UMF_EXPECT(!umf_mock_parse_size("1KB", &v));
    UMF_EXPECT(!umf_mock_parse_size(" 1K", &v));
    UMF_EXPECT(!umf_mock_parse_size(NULL, &v));
    UMF_EXPECT(!umf_mock_parse_size("123456789012345678901234567890", &v));
    UMF_EXPECT(umf_mock_parse_u64("0xffffffffffffffff", &v) && v == UINT64_MAX);
    UMF_EXPECT(umf_mock_parse_u64("18446744073709551615", &v) &&
               v == UINT64_MAX);
    UMF_EXPECT(!umf_mock_parse_u64("0x1g", &v));
}

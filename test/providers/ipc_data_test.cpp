// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The IPC data framing: round trip, every field's check, truncation,
// corruption of every bit, random bytes, and the instance id across fork.

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

extern "C" {
#include "ipc_data.h"
#include "util_fd.h"
}

namespace {

constexpr umf_gpu_provider_kind_t kZe = UMF_GPU_PROVIDER_KIND_LEVEL_ZERO;
constexpr umf_gpu_provider_kind_t kCuda = UMF_GPU_PROVIDER_KIND_CUDA;

umf_ipc_data_t makeValid(size_t handle_size = 8) {
    uint8_t handle[UMF_IPC_NATIVE_HANDLE_MAX];
    for (size_t i = 0; i < sizeof(handle); i++) {
        handle[i] = static_cast<uint8_t>(i + 1);
    }
    umf_ipc_data_t d;
    EXPECT_EQ(umf_ipc_data_init(&d, kZe, UMF_MEMORY_TYPE_DEVICE, 77,
                                0x7f0000100000ull, 1 << 20, 4096, handle,
                                handle_size, -1),
              UMF_RESULT_SUCCESS);
    return d;
}

umf_result_t validate(const umf_ipc_data_t &d,
                      umf_gpu_provider_kind_t kind = kZe) {
    umf_ipc_data_t out;
    return umf_ipc_data_validate(&d, sizeof(d), kind, &out);
}

// Applies `change` and recomputes the checksum, so that only the field check
// can refuse the data.
template <typename F> umf_result_t validateChanged(F change) {
    umf_ipc_data_t d = makeValid();
    change(d);
    d.checksum = umf_ipc_data_checksum(&d);
    return validate(d);
}

TEST(IpcData, RoundTrip) {
    umf_ipc_data_t d = makeValid(64);
    umf_ipc_data_t out;
    std::memset(&out, 0xab, sizeof(out));
    ASSERT_EQ(umf_ipc_data_validate(&d, sizeof(d), kZe, &out),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(std::memcmp(&d, &out, sizeof(d)), 0);
    EXPECT_EQ(out.magic, UMF_IPC_DATA_MAGIC);
    EXPECT_EQ(out.version, UMF_IPC_DATA_VERSION);
    EXPECT_EQ(out.kind, kZe);
    EXPECT_EQ(out.memory_type, UMF_MEMORY_TYPE_DEVICE);
    EXPECT_EQ(out.producer_pid, getpid());
    EXPECT_EQ(out.instance_id, umf_ipc_instance_id());
    EXPECT_EQ(out.alloc_id, 77u);
    EXPECT_EQ(out.base, 0x7f0000100000ull);
    EXPECT_EQ(out.size, 1u << 20);
    EXPECT_EQ(out.offset, 4096u);
    EXPECT_EQ(out.handle_size, 64u);
    EXPECT_TRUE(umf_ipc_data_is_local(&out));
}

TEST(IpcData, AcceptsUnalignedBytesAndLongerBuffers) {
    umf_ipc_data_t d = makeValid();
    std::vector<unsigned char> buf(sizeof(d) + 9);
    std::memcpy(buf.data() + 1, &d, sizeof(d));
    umf_ipc_data_t out;
    EXPECT_EQ(umf_ipc_data_validate(buf.data() + 1, sizeof(d) + 8, kZe, &out),
              UMF_RESULT_SUCCESS);
}

TEST(IpcData, InstanceIdIsStableAndNotZero) {
    uint64_t id = umf_ipc_instance_id();
    EXPECT_NE(id, 0u);
    EXPECT_EQ(umf_ipc_instance_id(), id);
}

TEST(IpcData, ForkedChildDrawsItsOwnInstanceId) {
    uint64_t parent = umf_ipc_instance_id();
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        uint64_t child = umf_ipc_instance_id();
        ssize_t n = write(fds[1], &child, sizeof(child));
        _exit(n == (ssize_t)sizeof(child) ? 0 : 1);
    }
    close(fds[1]);
    uint64_t child = 0;
    EXPECT_EQ(read(fds[0], &child, sizeof(child)), (ssize_t)sizeof(child));
    close(fds[0]);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    EXPECT_NE(child, 0u);
    EXPECT_NE(child, parent);
    EXPECT_EQ(umf_ipc_instance_id(), parent);
}

TEST(IpcData, ProcessIdIsKeptAndRenewedInAForkedChild) {
    EXPECT_EQ(umf_ipc_process_id(), (int32_t)getpid());
    EXPECT_EQ(umf_ipc_process_id(), (int32_t)getpid()); // the kept one
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        _exit(umf_ipc_process_id() == (int32_t)getpid() ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    EXPECT_EQ(umf_ipc_process_id(), (int32_t)getpid());
}

TEST(IpcData, DataOfAnotherProcessIsNotLocal) {
    umf_ipc_data_t d = makeValid();
    d.instance_id ^= 1;
    EXPECT_FALSE(umf_ipc_data_is_local(&d));
    d = makeValid();
    d.producer_pid += 1;
    EXPECT_FALSE(umf_ipc_data_is_local(&d));
}

TEST(IpcData, InitRejectsWhatValidateWouldRefuse) {
    uint8_t handle[UMF_IPC_NATIVE_HANDLE_MAX + 1] = {1};
    umf_ipc_data_t d;
    std::memset(&d, 0x5a, sizeof(d));
    const umf_ipc_data_t before = d;
    EXPECT_EQ(umf_ipc_data_init(&d, kZe, UMF_MEMORY_TYPE_DEVICE, 1, 4096, 64, 0,
                                handle, 0, -1),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_data_init(&d, kZe, UMF_MEMORY_TYPE_DEVICE, 1, 4096, 64, 0,
                                handle, sizeof(handle), -1),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_data_init(&d, kZe, UMF_MEMORY_TYPE_DEVICE, 1, 4096, 64, 0,
                                nullptr, 8, -1),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_data_init(&d, kZe, UMF_MEMORY_TYPE_DEVICE, 1, 4096, 64,
                                64, handle, 8, -1),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_data_init(&d, kZe, UMF_MEMORY_TYPE_DEVICE, 1, 4096, 0, 0,
                                handle, 8, -1),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_data_init(&d, kZe, UMF_MEMORY_TYPE_UNKNOWN, 1, 4096, 64,
                                0, handle, 8, -1),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_data_init(&d, kZe, UMF_MEMORY_TYPE_DEVICE, 1, 0, 64, 0,
                                handle, 8, -1),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_data_init(&d, kZe, UMF_MEMORY_TYPE_DEVICE, 1,
                                UINT64_MAX - 8, 64, 0, handle, 8, -1),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(std::memcmp(&d, &before, sizeof(d)), 0);
    EXPECT_EQ(umf_ipc_data_init(nullptr, kZe, UMF_MEMORY_TYPE_DEVICE, 1, 4096,
                                64, 0, handle, 8, -1),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST(IpcData, RejectsNullArguments) {
    umf_ipc_data_t d = makeValid(), out;
    EXPECT_EQ(umf_ipc_data_validate(nullptr, sizeof(d), kZe, &out),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(umf_ipc_data_validate(&d, sizeof(d), kZe, nullptr),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST(IpcData, RejectsEveryTruncation) {
    umf_ipc_data_t d = makeValid();
    umf_ipc_data_t out;
    for (size_t len = 0; len < sizeof(d); len++) {
        EXPECT_EQ(umf_ipc_data_validate(&d, len, kZe, &out),
                  UMF_RESULT_ERROR_INVALID_ARGUMENT)
            << len;
    }
    // Truncated in transit but padded back to full length with zeros.
    for (size_t keep = 0; keep < sizeof(d); keep += 8) {
        umf_ipc_data_t t;
        std::memset(&t, 0, sizeof(t));
        std::memcpy(&t, &d, keep);
        EXPECT_EQ(validate(t), UMF_RESULT_ERROR_INVALID_ARGUMENT) << keep;
    }
}

TEST(IpcData, RejectsForeignKinds) {
    umf_ipc_data_t d = makeValid();
    EXPECT_EQ(validate(d, kCuda), UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(validateChanged([](umf_ipc_data_t &x) { x.kind = 0; }),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(validateChanged([](umf_ipc_data_t &x) { x.kind = 3; }),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(validateChanged([](umf_ipc_data_t &x) { x.kind = kCuda; }),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST(IpcData, ChecksEveryField) {
    EXPECT_EQ(validateChanged([](umf_ipc_data_t &) {}), UMF_RESULT_SUCCESS);
    const std::vector<void (*)(umf_ipc_data_t &)> changes = {
        [](umf_ipc_data_t &x) { x.magic ^= 1; },
        [](umf_ipc_data_t &x) { x.magic = 0; },
        [](umf_ipc_data_t &x) { x.version = 0; },
        [](umf_ipc_data_t &x) { x.version = UMF_IPC_DATA_VERSION + 1; },
        [](umf_ipc_data_t &x) { x.memory_type = UMF_MEMORY_TYPE_UNKNOWN; },
        [](umf_ipc_data_t &x) { x.memory_type = 4; },
        [](umf_ipc_data_t &x) { x.memory_type = 0xffff; },
        [](umf_ipc_data_t &x) { x.handle_size = 0; },
        [](umf_ipc_data_t &x) {
            x.handle_size = UMF_IPC_NATIVE_HANDLE_MAX + 1;
        },
        [](umf_ipc_data_t &x) { x.handle_size = 0xffff; },
        [](umf_ipc_data_t &x) { x.handle[UMF_IPC_NATIVE_HANDLE_MAX - 1] = 1; },
        [](umf_ipc_data_t &x) { x.reserved = 1; },
        [](umf_ipc_data_t &x) { x.producer_pid = 0; },
        [](umf_ipc_data_t &x) { x.producer_pid = -1; },
        [](umf_ipc_data_t &x) { x.producer_pid = INT32_MIN; },
        [](umf_ipc_data_t &x) { x.instance_id = 0; },
        [](umf_ipc_data_t &x) { x.size = 0; },
        [](umf_ipc_data_t &x) { x.offset = x.size; },
        [](umf_ipc_data_t &x) { x.offset = UINT64_MAX; },
        [](umf_ipc_data_t &x) { x.base = 0; },
        [](umf_ipc_data_t &x) { x.base = UINT64_MAX - 100; },
        [](umf_ipc_data_t &x) {
            x.size = UINT64_MAX;
            x.offset = 0;
        },
    };
    for (size_t i = 0; i < changes.size(); i++) {
        EXPECT_EQ(validateChanged(changes[i]),
                  UMF_RESULT_ERROR_INVALID_ARGUMENT)
            << "change #" << i;
    }
}

TEST(IpcData, ChecksTheVersion2Fields) {
    const std::vector<void (*)(umf_ipc_data_t &)> changes = {
        [](umf_ipc_data_t &x) { x.handle_type = 3; }, // no such type
        [](umf_ipc_data_t &x) { x.handle_type = UMF_IPC_HANDLE_FABRIC; },
        [](umf_ipc_data_t &x) { x.reserved3 = 1; },
        [](umf_ipc_data_t &x) { x.fd_dev = 5; }, // without an inode
        [](umf_ipc_data_t &x) { x.fd_ino = 5; }, // without a device
        [](umf_ipc_data_t &x) { x.socket_kind = 3; },
        [](umf_ipc_data_t &x) { x.socket_len = 4; }, // and no kind
        [](umf_ipc_data_t &x) {
            x.socket_kind = UMF_IPC_SOCKET_ABSTRACT; // and no name
        },
        [](umf_ipc_data_t &x) {
            x.socket_kind = UMF_IPC_SOCKET_PATH;
            x.socket_len = UMF_IPC_SOCKET_NAME_MAX + 1;
        },
        [](umf_ipc_data_t &x) {
            x.socket_kind = UMF_IPC_SOCKET_PATH;
            x.socket_len = 3;
            std::memcpy(x.socket_name, "a\0b", 3); // a NUL inside
        },
        [](umf_ipc_data_t &x) {
            x.socket_kind = UMF_IPC_SOCKET_PATH;
            x.socket_len = 2;
            std::memcpy(x.socket_name, "abc", 3); // bytes after the name
        },
    };
    for (size_t i = 0; i < changes.size(); i++) {
        EXPECT_EQ(validateChanged(changes[i]),
                  UMF_RESULT_ERROR_INVALID_ARGUMENT)
            << "change #" << i;
    }
    EXPECT_EQ(validateChanged([](umf_ipc_data_t &x) {
                  x.socket_kind = UMF_IPC_SOCKET_PATH;
                  x.socket_len = 9;
                  std::memcpy(x.socket_name, "/tmp/sock", 9);
              }),
              UMF_RESULT_SUCCESS);
}

// A VMM handle type fits CUDA device memory only, and each type its own
// handle: a POSIX fd is 4 bytes with the fd's identity, a fabric handle 64
// bytes without an fd.
TEST(IpcData, ChecksTheNativeHandleType) {
    int32_t fd = STDERR_FILENO;
    umf_ipc_data_t d;
    ASSERT_EQ(umf_ipc_data_init(&d, kCuda, UMF_MEMORY_TYPE_DEVICE, 9, 1 << 21,
                                1 << 21, 0, &fd, sizeof(fd), fd),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(d.handle_type, UMF_IPC_HANDLE_DRIVER);
    umf_ipc_data_t fd_data = d;
    ASSERT_EQ(umf_ipc_data_set_handle_type(&fd_data, UMF_IPC_HANDLE_POSIX_FD),
              UMF_RESULT_SUCCESS);
    umf_ipc_data_t out;
    ASSERT_EQ(umf_ipc_data_validate(&fd_data, sizeof(fd_data), kCuda, &out),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(out.handle_type, UMF_IPC_HANDLE_POSIX_FD);
    // The 4-byte handle with an fd is no fabric handle.
    umf_ipc_data_t unchanged = d;
    EXPECT_EQ(umf_ipc_data_set_handle_type(&unchanged, UMF_IPC_HANDLE_FABRIC),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(std::memcmp(&unchanged, &d, sizeof(d)), 0);

    uint8_t fabric[UMF_IPC_NATIVE_HANDLE_MAX] = {7};
    ASSERT_EQ(umf_ipc_data_init(&d, kCuda, UMF_MEMORY_TYPE_DEVICE, 9, 1 << 21,
                                1 << 21, 0, fabric, sizeof(fabric), -1),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_ipc_data_set_handle_type(&d, UMF_IPC_HANDLE_POSIX_FD),
              UMF_RESULT_ERROR_INVALID_ARGUMENT); // 64 bytes, no fd
    ASSERT_EQ(umf_ipc_data_set_handle_type(&d, UMF_IPC_HANDLE_FABRIC),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(umf_ipc_data_validate(&d, sizeof(d), kCuda, &out),
              UMF_RESULT_SUCCESS);
    // Forged: served over a socket, or host memory.
    umf_ipc_data_t forged = d;
    forged.socket_kind = UMF_IPC_SOCKET_PATH;
    forged.socket_len = 2;
    std::memcpy(forged.socket_name, "/s", 2);
    forged.checksum = umf_ipc_data_checksum(&forged);
    EXPECT_EQ(umf_ipc_data_validate(&forged, sizeof(forged), kCuda, &out),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    forged = d;
    forged.memory_type = UMF_MEMORY_TYPE_HOST;
    forged.checksum = umf_ipc_data_checksum(&forged);
    EXPECT_EQ(umf_ipc_data_validate(&forged, sizeof(forged), kCuda, &out),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    // Level Zero has no VMM handles.
    umf_ipc_data_t ze = makeValid(64);
    EXPECT_EQ(umf_ipc_data_set_handle_type(&ze, UMF_IPC_HANDLE_FABRIC),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST(IpcData, RecordsWhoExportedAndTheHandlesFd) {
    umf_ipc_data_t d = makeValid();
    uint64_t start = 0;
    ASSERT_EQ(umf_proc_start_time(getpid(), &start), 0);
    EXPECT_NE(start, 0u);
    EXPECT_EQ(d.producer_start_time, start);
    EXPECT_EQ(umf_proc_self_start_time(), start);
    EXPECT_EQ(d.producer_pidfs_ino, umf_proc_self_pidfs_ino());
    EXPECT_EQ(d.fd_dev, 0u); // no fd in the handle
    EXPECT_EQ(d.fd_ino, 0u);
    uint8_t handle[8] = {1};
    ASSERT_EQ(umf_ipc_data_init(&d, kZe, UMF_MEMORY_TYPE_DEVICE, 1, 4096, 64, 0,
                                handle, sizeof(handle), STDERR_FILENO),
              UMF_RESULT_SUCCESS);
    struct stat st;
    ASSERT_EQ(fstat(STDERR_FILENO, &st), 0);
    EXPECT_EQ(d.fd_ino, st.st_ino);
    EXPECT_EQ(d.fd_dev, st.st_dev);
    EXPECT_EQ(validate(d), UMF_RESULT_SUCCESS);
    // An fd that is not open is no identity.
    EXPECT_EQ(umf_ipc_data_init(&d, kZe, UMF_MEMORY_TYPE_DEVICE, 1, 4096, 64, 0,
                                handle, sizeof(handle), 987),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

// What a version 1 producer made: 136 bytes, its checksum at 128.
std::vector<unsigned char> asVersion1(umf_ipc_data_t d) {
    d.version = 1;
    std::vector<unsigned char> v1(UMF_IPC_DATA_V1_SIZE);
    std::memcpy(v1.data(), &d, UMF_IPC_DATA_V1_SIZE - 8);
    uint64_t sum = umf_ipc_data_checksum(&d);
    std::memcpy(v1.data() + UMF_IPC_DATA_V1_SIZE - 8, &sum, sizeof(sum));
    return v1;
}

TEST(IpcData, ReadsVersion1Records) {
    const umf_ipc_data_t d = makeValid(64);
    std::vector<unsigned char> v1 = asVersion1(d);
    umf_ipc_data_t out;
    std::memset(&out, 0xab, sizeof(out));
    ASSERT_EQ(umf_ipc_data_validate(v1.data(), v1.size(), kZe, &out),
              UMF_RESULT_SUCCESS);
    EXPECT_EQ(out.version, 1u);
    EXPECT_EQ(umf_ipc_data_size(&out), UMF_IPC_DATA_V1_SIZE);
    EXPECT_EQ(out.alloc_id, d.alloc_id);
    EXPECT_EQ(out.size, d.size);
    EXPECT_EQ(out.offset, d.offset);
    EXPECT_EQ(std::memcmp(out.handle, d.handle, sizeof(d.handle)), 0);
    EXPECT_EQ(out.producer_start_time, 0u); // unknown
    EXPECT_EQ(out.fd_ino, 0u);
    EXPECT_EQ(out.socket_kind, UMF_IPC_SOCKET_NONE);
    // Read from its 136 bytes only, and each of them counts.
    EXPECT_EQ(umf_ipc_data_validate(v1.data(), v1.size() - 1, kZe, &out),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
    for (size_t bit = 0; bit < v1.size() * 8; bit++) {
        std::vector<unsigned char> x = v1;
        x[bit / 8] ^= static_cast<unsigned char>(1u << (bit % 8));
        ASSERT_EQ(umf_ipc_data_validate(x.data(), x.size(), kZe, &out),
                  UMF_RESULT_ERROR_INVALID_ARGUMENT)
            << bit;
    }
    // A version 2 record cut to 136 bytes is truncated.
    EXPECT_EQ(umf_ipc_data_validate(&d, UMF_IPC_DATA_V1_SIZE, kZe, &out),
              UMF_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST(IpcData, DetectsEverySingleBitFlip) {
    const umf_ipc_data_t d = makeValid(16);
    for (size_t bit = 0; bit < sizeof(d) * 8; bit++) {
        umf_ipc_data_t x = d;
        reinterpret_cast<unsigned char *>(&x)[bit / 8] ^=
            static_cast<unsigned char>(1u << (bit % 8));
        ASSERT_EQ(validate(x), UMF_RESULT_ERROR_INVALID_ARGUMENT) << bit;
    }
}

TEST(IpcData, RandomBytesAndMutationsNeverPass) {
    std::mt19937_64 rng(1234);
    umf_ipc_data_t out;
    std::vector<unsigned char> buf(sizeof(umf_ipc_data_t) * 2);
    for (int i = 0; i < 20000; i++) {
        size_t len = rng() % buf.size();
        for (auto &b : buf) {
            b = static_cast<unsigned char>(rng());
        }
        ASSERT_EQ(umf_ipc_data_validate(buf.data(), len, kZe, &out),
                  UMF_RESULT_ERROR_INVALID_ARGUMENT);
    }
    // Valid data with a random number of random bytes overwritten.
    const umf_ipc_data_t d = makeValid(32);
    for (int i = 0; i < 20000; i++) {
        umf_ipc_data_t x = d;
        auto *bytes = reinterpret_cast<unsigned char *>(&x);
        int n = 1 + static_cast<int>(rng() % 8);
        bool changed = false;
        for (int k = 0; k < n; k++) {
            size_t at = rng() % sizeof(x);
            auto v = static_cast<unsigned char>(rng());
            changed |= bytes[at] != v;
            bytes[at] = v;
        }
        if (changed && std::memcmp(&x, &d, sizeof(x)) != 0) {
            ASSERT_EQ(validate(x), UMF_RESULT_ERROR_INVALID_ARGUMENT);
        }
    }
}

} // namespace

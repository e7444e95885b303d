// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "ipc_data.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util_common.h"
#include "util_fd.h"
#include "util_hash_map.h"
#include "util_umf_log.h"

// 0 until drawn; reset in the child of a fork so that it draws its own.
static _Atomic uint64_t instance_id;
// This process's pid, 0 until asked. getpid() is a system call (about
// 100 ns), and every open_ipc_handle compares the producer's pid with ours;
// so the pid is kept, and forgotten in the child of a fork like the
// instance id. Kept only once the fork handler is in place.
static _Atomic int32_t self_pid;
static bool atfork_registered;
static umf_once_t atfork_once = UMF_ONCE_INIT;

static void forget_instance_id(void) {
    atomic_store_explicit(&instance_id, 0, memory_order_relaxed);
    atomic_store_explicit(&self_pid, 0, memory_order_relaxed);
}

static void register_atfork(void) {
    if (pthread_atfork(NULL, NULL, forget_instance_id) != 0) {
        UMF_LOG_WARN("pthread_atfork failed: a forked child would reuse the "
                     "parent's IPC instance id until it calls exec");
        return;
    }
    atfork_registered = true;
}

static uint64_t draw_instance_id(void) {
    uint64_t id = 0;
    if (getrandom(&id, sizeof(id), 0) != (ssize_t)sizeof(id)) {
        // No entropy source: mix what differs between processes and times.
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        id = umf_hash_u64((uint64_t)getpid() ^ ((uint64_t)now.tv_nsec << 20) ^
                          ((uint64_t)now.tv_sec << 40) ^ (uintptr_t)&now);
        UMF_LOG_DEBUG("getrandom failed; IPC instance id from pid and clock");
    }
    return id != 0 ? id : 1;
}

int32_t umf_ipc_process_id(void) {
    int32_t pid = atomic_load_explicit(&self_pid, memory_order_relaxed);
    if (UMF_LIKELY(pid != 0)) {
        return pid;
    }
    umf_once(&atfork_once, register_atfork);
    pid = (int32_t)getpid();
    if (atfork_registered) {
        atomic_store_explicit(&self_pid, pid, memory_order_relaxed);
    }
    return pid;
}

uint64_t umf_ipc_instance_id(void) {
    uint64_t id = atomic_load_explicit(&instance_id, memory_order_acquire);
    if (UMF_LIKELY(id != 0)) {
        return id;
    }
    umf_once(&atfork_once, register_atfork);
    uint64_t expected = 0, drawn = draw_instance_id();
    // The first thread to draw wins; the others return its id.
    if (atomic_compare_exchange_strong_explicit(&instance_id, &expected, drawn,
                                                memory_order_acq_rel,
                                                memory_order_acquire)) {
        return drawn;
    }
    return expected;
}

size_t umf_ipc_data_size(const umf_ipc_data_t *data) {
    return data->version == 1 ? UMF_IPC_DATA_V1_SIZE : sizeof(umf_ipc_data_t);
}

static inline uint64_t rotl64(uint64_t x, unsigned r) {
    return (x << r) | (x >> (64 - r));
}

// Version 2: four lanes of words, each a chain of bijective steps (xor with
// the word, rotate, multiply by an odd constant), so that a change of one
// word changes its lane, and a changed lane the result; the lanes run in
// parallel, so that the 256-byte record costs about what version 1's 136
// bytes did.
static uint64_t checksum_v2(const unsigned char *bytes) {
    uint64_t lane[4] = {0x9e3779b97f4a7c15ull ^ UMF_IPC_DATA_MAGIC,
                        0xc2b2ae3d27d4eb4full, 0x165667b19e3779f9ull,
                        0x27d4eb2f165667c5ull};
    enum { WORDS = offsetof(umf_ipc_data_t, checksum) / 8 };
    for (size_t i = 0; i < WORDS; i++) {
        uint64_t word;
        memcpy(&word, bytes + 8 * i, sizeof(word));
        lane[i % 4] = rotl64(lane[i % 4] ^ word, 29) * 0xff51afd7ed558ccdull;
    }
    return umf_hash_u64(lane[0] ^ rotl64(lane[1], 16) ^ rotl64(lane[2], 32) ^
                        rotl64(lane[3], 48));
}

uint64_t umf_ipc_data_checksum(const umf_ipc_data_t *data) {
    const unsigned char *bytes = (const unsigned char *)data;
    if (data->version != 1) {
        return checksum_v2(bytes);
    }
    // Version 1: one chain over its 128 bytes.
    uint64_t h = 0x9e3779b97f4a7c15ull ^ UMF_IPC_DATA_MAGIC;
    size_t end = UMF_IPC_DATA_V1_SIZE - sizeof(uint64_t);
    for (size_t i = 0; i < end; i += 8) {
        uint64_t word;
        memcpy(&word, bytes + i, sizeof(word));
        h = umf_hash_u64(h ^ word) + i;
    }
    return h;
}

static bool memory_type_valid(uint16_t type) {
    return type == UMF_MEMORY_TYPE_HOST || type == UMF_MEMORY_TYPE_DEVICE ||
           type == UMF_MEMORY_TYPE_SHARED;
}

// The handle type against the rest; NULL if fine, else what is wrong.
static const char *check_handle_type(const umf_ipc_data_t *d) {
    switch (d->handle_type) {
    case UMF_IPC_HANDLE_DRIVER:
        return NULL;
    case UMF_IPC_HANDLE_POSIX_FD:
    case UMF_IPC_HANDLE_FABRIC:
        if (d->kind != UMF_GPU_PROVIDER_KIND_CUDA ||
            d->memory_type != UMF_MEMORY_TYPE_DEVICE) {
            return "a VMM handle type for other than CUDA device memory";
        }
        if (d->handle_type == UMF_IPC_HANDLE_POSIX_FD) {
            return d->handle_size != sizeof(int32_t) || d->fd_ino == 0
                       ? "a POSIX fd handle without its 4 bytes or the fd's "
                         "identity"
                       : NULL;
        }
        return d->handle_size != UMF_IPC_NATIVE_HANDLE_MAX || d->fd_ino != 0 ||
                       d->socket_kind != UMF_IPC_SOCKET_NONE
                   ? "a fabric handle without its 64 bytes, or with an fd"
                   : NULL;
    default:
        return "unknown native handle type";
    }
}

// The fields version 2 added; NULL if fine, else what is wrong.
static const char *check_v2_fields(const umf_ipc_data_t *d) {
    if (d->reserved3 != 0) {
        return "reserved field is not zero";
    }
    const char *why = check_handle_type(d);
    if (why != NULL) {
        return why;
    }
    if ((d->fd_dev == 0) != (d->fd_ino == 0)) {
        return "incomplete identity of the handle's fd";
    }
    if (d->socket_kind > UMF_IPC_SOCKET_PATH ||
        d->socket_len > UMF_IPC_SOCKET_NAME_MAX ||
        (d->socket_kind == UMF_IPC_SOCKET_NONE) != (d->socket_len == 0)) {
        return "invalid fd server socket";
    }
    static const char zeros[UMF_IPC_SOCKET_NAME_MAX];
    if (memchr(d->socket_name, '\0', d->socket_len) != NULL ||
        memcmp(d->socket_name + d->socket_len, zeros,
               UMF_IPC_SOCKET_NAME_MAX - d->socket_len) != 0) {
        return "invalid fd server socket name";
    }
    return NULL;
}

// Checks everything but the checksum; NULL if fine, else what is wrong.
static const char *check_fields(const umf_ipc_data_t *d,
                                umf_gpu_provider_kind_t kind) {
    if (d->magic != UMF_IPC_DATA_MAGIC) {
        return "wrong magic number (not umf-gpu IPC data)";
    }
    if (d->version != UMF_IPC_DATA_VERSION && d->version != 1) {
        return "unsupported layout version";
    }
    if (d->kind != (uint16_t)kind) {
        return umf_gpu_provider_kind_valid(d->kind)
                   ? "made by a provider of another kind"
                   : "unknown provider kind";
    }
    if (!memory_type_valid(d->memory_type)) {
        return "invalid memory type";
    }
    if (d->handle_size == 0 || d->handle_size > UMF_IPC_NATIVE_HANDLE_MAX) {
        return "invalid native handle size";
    }
    for (size_t i = d->handle_size; i < UMF_IPC_NATIVE_HANDLE_MAX; i++) {
        if (d->handle[i] != 0) {
            return "bytes after the native handle are not zero";
        }
    }
    if (d->reserved != 0) {
        return "reserved field is not zero";
    }
    if (d->producer_pid <= 0) {
        return "invalid producer pid";
    }
    if (d->instance_id == 0) {
        return "invalid producer instance id";
    }
    if (d->size == 0) {
        return "allocation size is 0";
    }
    if (d->offset >= d->size) {
        return "offset lies outside the allocation";
    }
    if (d->base == 0 || d->base > UINT64_MAX - d->size ||
        d->base + d->size > (uint64_t)UINTPTR_MAX) {
        return "allocation base and size do not fit the address space";
    }
    return d->version == 1 ? NULL : check_v2_fields(d);
}

umf_result_t umf_ipc_data_init(umf_ipc_data_t *out,
                               umf_gpu_provider_kind_t kind,
                               umf_usm_memory_type_t memory_type,
                               uint64_t alloc_id, uint64_t base, uint64_t size,
                               uint64_t offset, const void *handle,
                               size_t handle_size, int handle_fd) {
    if (out == NULL || handle == NULL || handle_size == 0 ||
        handle_size > UMF_IPC_NATIVE_HANDLE_MAX) {
        UMF_LOG_ERROR("IPC data: invalid native handle (size %zu)",
                      handle_size);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    struct stat st = {0};
    if (handle_fd >= 0 && fstat(handle_fd, &st) != 0) {
        UMF_LOG_ERROR("IPC data: the native handle's fd %d: %s", handle_fd,
                      strerror(errno));
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    umf_ipc_data_t d;
    memset(&d, 0, sizeof(d));
    d.magic = UMF_IPC_DATA_MAGIC;
    d.version = UMF_IPC_DATA_VERSION;
    d.kind = (uint16_t)kind;
    d.memory_type = (uint16_t)memory_type;
    d.handle_size = (uint16_t)handle_size;
    d.producer_pid = umf_ipc_process_id();
    d.instance_id = umf_ipc_instance_id();
    d.alloc_id = alloc_id;
    d.base = base;
    d.size = size;
    d.offset = offset;
    memcpy(d.handle, handle, handle_size);
    d.producer_start_time = umf_proc_self_start_time();
    d.producer_pidfs_ino = umf_proc_self_pidfs_ino();
    if (handle_fd >= 0) {
        // 0 means "no fd": a file without a device or inode number (none
        // that a driver exports) is not identified.
        if (st.st_dev != 0 && st.st_ino != 0) {
            d.fd_dev = (uint64_t)st.st_dev;
            d.fd_ino = (uint64_t)st.st_ino;
        }
    }
    const char *why = check_fields(&d, kind);
    if (why != NULL) {
        UMF_LOG_ERROR("IPC data: cannot describe allocation (base 0x%llx, "
                      "size %llu, offset %llu): %s",
                      (unsigned long long)base, (unsigned long long)size,
                      (unsigned long long)offset, why);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    d.checksum = umf_ipc_data_checksum(&d);
    *out = d;
    return UMF_RESULT_SUCCESS;
}

umf_result_t umf_ipc_data_set_handle_type(umf_ipc_data_t *data,
                                          umf_ipc_handle_type_t type) {
    umf_ipc_data_t d = *data;
    d.handle_type = (uint8_t)type;
    const char *why = check_fields(&d, (umf_gpu_provider_kind_t)d.kind);
    if (why != NULL) {
        UMF_LOG_ERROR("IPC data: handle type %d: %s", (int)type, why);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    d.checksum = umf_ipc_data_checksum(&d);
    *data = d;
    return UMF_RESULT_SUCCESS;
}

umf_result_t umf_ipc_data_validate(const void *bytes, size_t len,
                                   umf_gpu_provider_kind_t kind,
                                   umf_ipc_data_t *out) {
    if (bytes == NULL || out == NULL) {
        UMF_LOG_ERROR("IPC data: NULL argument");
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    // The layout version says how many bytes the record has: read the
    // header first, then only that many (a version 1 producer's buffer
    // holds 136).
    umf_ipc_data_t d;
    uint16_t version = 0;
    if (len >= offsetof(umf_ipc_data_t, kind)) {
        memcpy(&version,
               (const char *)bytes + offsetof(umf_ipc_data_t, version),
               sizeof(version));
    }
    size_t need = version == 1 ? UMF_IPC_DATA_V1_SIZE : sizeof(d);
    if (len < need) {
        UMF_LOG_ERROR("IPC data: %zu bytes, truncated (%zu expected)", len,
                      need);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    if (version == 1) {
        memset(&d, 0, sizeof(d));
        memcpy(&d, bytes, UMF_IPC_DATA_V1_SIZE - sizeof(d.checksum));
        // Its checksum sits where version 2 has the producer's start time.
        memcpy(&d.checksum,
               (const char *)bytes + UMF_IPC_DATA_V1_SIZE - sizeof(d.checksum),
               sizeof(d.checksum));
    } else {
        memcpy(&d, bytes, sizeof(d));
    }
    const char *why = check_fields(&d, kind);
    if (why == NULL && d.checksum != umf_ipc_data_checksum(&d)) {
        why = "checksum mismatch (corrupted or truncated data)";
    }
    if (why != NULL) {
        UMF_LOG_ERROR("IPC data rejected: %s", why);
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    *out = d;
    return UMF_RESULT_SUCCESS;
}

bool umf_ipc_data_is_local(const umf_ipc_data_t *data) {
    return data->instance_id == umf_ipc_instance_id() &&
           data->producer_pid == umf_ipc_process_id();
}

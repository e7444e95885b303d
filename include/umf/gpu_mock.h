// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Control API of the emulated GPU drivers: the Level Zero driver
// (libze_mock.so, functions umfZeMock*) and the emulated libcuda.so.1
// (functions umfCudaMock*). The drivers export these functions; nothing
// links to them. A test reaches them in the driver the process already
// loaded:
//
//   void *drv = dlopen(path_of_the_driver, RTLD_NOW | RTLD_NOLOAD);
//   umf_gpu_mock_inject_faults_fn inject =
//       (umf_gpu_mock_inject_faults_fn)dlsym(drv, "umfZeMockInjectFaults");
//   inject("zeMemAllocDevice:1=ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY");
//   ...
//   dlclose(drv); // drops the reference dlopen took
//
// Every function works before the driver is initialised (zeInit, cuInit)
// and is thread-safe. The two drivers have separate state: rules given to
// one do not reach the other.
//
// Fault rules (the same syntax as the variable UMF_GPU_MOCK_FAULTS):
//   "<entry>:<when>=<result>[;<entry>:<when>=<result>...]"
//   <when>:   N (only the Nth call), N+ (the Nth and every later call),
//             pP (P percent of the calls, 0-100, up to three decimals,
//             drawn from a generator seeded by UMF_GPU_MOCK_SEED)
//   <result>: a result name (ZE_RESULT_ERROR_..., CUDA_ERROR_...) or a
//             number (decimal or 0x hex)
// A rule counts the calls of its entry point from the moment it is added;
// when several rules of one entry point match, the first added decides.

#ifndef UMF_GPU_MOCK_H
#define UMF_GPU_MOCK_H 1

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// @brief What umf*MockGetLiveCount counts.
typedef enum umf_gpu_mock_live_t {
    /// Device, host and shared allocations not yet freed.
    UMF_GPU_MOCK_LIVE_ALLOCATIONS = 0,
    /// IPC handles the driver holds open (one per exported allocation;
    /// closed when the allocation is freed).
    UMF_GPU_MOCK_LIVE_IPC_HANDLES = 1,
    /// Mappings opened from IPC handles and not yet closed.
    UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS = 2,
    /// Freed allocations whose memory another mapping still imports, so the
    /// driver keeps it out of new allocations (arena memory mode). Counting
    /// them first releases those no longer imported.
    UMF_GPU_MOCK_LIVE_QUARANTINED = 3,
    /// Physical memory objects of virtual memory management (cuMemCreate,
    /// zePhysicalMemCreate, and their imports) with a handle not yet
    /// released.
    UMF_GPU_MOCK_LIVE_PHYSICAL_MEMORY = 4,
    /// Reserved virtual address ranges not yet freed.
    UMF_GPU_MOCK_LIVE_ADDRESS_RESERVATIONS = 5,
    /// Mapped ranges of physical memory not yet unmapped.
    UMF_GPU_MOCK_LIVE_MAPPINGS = 6,
} umf_gpu_mock_live_t;

/// @brief Adds fault rules; all of them or, on any error, none.
/// @return 0, or -1 when `rules` is NULL or malformed or names an entry point
/// or result the driver does not know (the reason is logged).
typedef int (*umf_gpu_mock_inject_faults_fn)(const char *rules);
/// @brief Removes every fault rule, those of UMF_GPU_MOCK_FAULTS included.
typedef void (*umf_gpu_mock_clear_faults_fn)(void);
/// @brief Calls of entry point `entry` (e.g. "zeMemAllocDevice") that reached
/// the driver since it was loaded or since the last reset; failed calls
/// included. -1 for a name the driver does not know.
typedef int64_t (*umf_gpu_mock_get_call_count_fn)(const char *entry);
/// @brief Sets every call count to zero.
typedef void (*umf_gpu_mock_reset_call_counts_fn)(void);
/// @brief The number of live things of kind `what`, or -1 for an unknown kind.
typedef int64_t (*umf_gpu_mock_get_live_count_fn)(umf_gpu_mock_live_t what);
/// @brief The number of live driver objects of kind `kind`: "context", and
/// whatever else the driver tracks ("command list", "event pool", ...);
/// -1 for a kind the driver does not track.
typedef int64_t (*umf_gpu_mock_get_object_count_fn)(const char *kind);
/// @brief Writes the leak report (what the driver would report at exit) to
/// file descriptor `fd`. Returns the number of leaked things listed (0 writes
/// nothing), or -1 when writing failed.
typedef int64_t (*umf_gpu_mock_write_leak_report_fn)(int fd);
/// umfCudaMockSetDeviceAttribute and umfCudaMockResetDeviceAttributes
/// (the emulated libcuda only).
typedef int (*umf_cuda_mock_set_device_attribute_fn)(int device, int attribute,
                                                     int value);
typedef void (*umf_cuda_mock_reset_device_attributes_fn)(void);

/// @name The emulated Level Zero driver, libze_mock.so
/// @{
int umfZeMockInjectFaults(const char *rules);
void umfZeMockClearFaults(void);
int64_t umfZeMockGetCallCount(const char *entry);
void umfZeMockResetCallCounts(void);
int64_t umfZeMockGetLiveCount(umf_gpu_mock_live_t what);
int64_t umfZeMockGetObjectCount(const char *kind);
int64_t umfZeMockWriteLeakReport(int fd);
/// @}

/// @name The emulated CUDA driver, libcuda.so.1
/// @{
int umfCudaMockInjectFaults(const char *rules);
void umfCudaMockClearFaults(void);
int64_t umfCudaMockGetCallCount(const char *entry);
void umfCudaMockResetCallCounts(void);
int64_t umfCudaMockGetLiveCount(umf_gpu_mock_live_t what);
int64_t umfCudaMockGetObjectCount(const char *kind);
int64_t umfCudaMockWriteLeakReport(int fd);
/// Makes cuDeviceGetAttribute(attribute, device) answer `value` from now on
/// in this process (device: an ordinal below 64; the attribute a
/// CUdevice_attribute), for testing how clients treat a device without a
/// feature; nothing else in the driver changes. 0, or -1 for an argument out
/// of range.
int umfCudaMockSetDeviceAttribute(int device, int attribute, int value);
/// Drops every override of umfCudaMockSetDeviceAttribute.
void umfCudaMockResetDeviceAttributes(void);
/// @}

#ifdef __cplusplus
}
#endif

#endif // UMF_GPU_MOCK_H

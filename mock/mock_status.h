// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Results of the core's operations. Each driver maps them to its own result
// codes in one table.

#ifndef UMF_GPU_MOCK_STATUS_H
#define UMF_GPU_MOCK_STATUS_H 1

typedef enum umf_mock_status_t {
    UMF_MOCK_OK = 0,
    UMF_MOCK_ERR_INVALID_ARGUMENT,      // NULL, out of range or malformed input
    UMF_MOCK_ERR_NOT_FOUND,             // not in a live allocation (unknown,
                                        // or already freed)
    UMF_MOCK_ERR_NOT_BASE,              // inside an allocation, not its start
    UMF_MOCK_ERR_WRONG_KIND,            // e.g. a host allocation where device
                                        // memory is needed, an imported
                                        // mapping given to free
    UMF_MOCK_ERR_WRONG_OWNER,           // made by another context
    UMF_MOCK_ERR_UNSUPPORTED_SIZE,      // 0, or larger than any device
    UMF_MOCK_ERR_UNSUPPORTED_ALIGNMENT, // not 0 or a power of two, or too
                                        // large
    UMF_MOCK_ERR_OUT_OF_DEVICE_MEMORY,
    UMF_MOCK_ERR_OUT_OF_HOST_MEMORY, // also: out of file descriptors
    UMF_MOCK_ERR_NOT_SUPPORTED,      // e.g. IPC in malloc memory mode
    UMF_MOCK_ERR_STALE_HANDLE,       // an IPC handle whose allocation was
                                     // freed, or which is not ours
    UMF_MOCK_ERR_ALREADY_MAPPED,     // imported before, and sharing is off
    UMF_MOCK_ERR_PERMISSION,         // may not take the exporter's fd
    UMF_MOCK_ERR_NO_PROCESS,         // the exporting process is gone
    UMF_MOCK_ERR_NOT_INITIALIZED,    // the configuration was rejected
    UMF_MOCK_ERR_OS,                 // another system call failed (logged)
    UMF_MOCK_ERR_BUSY,               // the exporter's fd server dropped the
                                     // request or did not answer in time,
                                     // after retries; the exporter is alive
} umf_mock_status_t;

// The enumerator's name without the prefix, e.g. "NOT_FOUND".
const char *umf_mock_status_name(umf_mock_status_t status);

#endif // UMF_GPU_MOCK_STATUS_H

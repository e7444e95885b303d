// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Version macros and result codes shared by every umf-gpu header.

#ifndef UMF_BASE_H
#define UMF_BASE_H 1

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// @brief Packs a major and a minor version into one 32-bit number.
#define UMF_MAKE_VERSION(_major, _minor)                                       \
    ((uint32_t)(((uint32_t)(_major) << 16) | ((uint32_t)(_minor)&0xffffu)))
/// @brief The major part of a version made by UMF_MAKE_VERSION.
#define UMF_MAJOR_VERSION(_ver) ((uint32_t)(_ver) >> 16)
/// @brief The minor part of a version made by UMF_MAKE_VERSION.
#define UMF_MINOR_VERSION(_ver) ((uint32_t)(_ver)&0xffffu)

/// @brief The ops-table version this library implements and accepts: 0.9.
#define UMF_VERSION_CURRENT UMF_MAKE_VERSION(0, 9)

/// @brief Result of every umf function that can fail. The values are part of
/// the ABI and never change.
typedef enum umf_result_t {
    /// The call succeeded.
    UMF_RESULT_SUCCESS = 0,
    /// Host memory (for the library's own bookkeeping) ran out.
    UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY = 1,
    /// The provider's driver failed; umfMemoryProviderGetLastNativeError()
    /// tells the native code and what failed, in the thread that failed.
    UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC = 2,
    /// An argument is NULL, out of range, or names nothing this provider owns.
    UMF_RESULT_ERROR_INVALID_ARGUMENT = 3,
    /// An alignment is neither 0 nor a power of two, or a range is not
    /// aligned as the operation requires.
    UMF_RESULT_ERROR_INVALID_ALIGNMENT = 4,
    /// The provider (or this build of the library) cannot do the operation.
    UMF_RESULT_ERROR_NOT_SUPPORTED = 5,
    /// Reserved for user-defined providers.
    UMF_RESULT_ERROR_USER_SPECIFIC = 6,
    /// A library the operation needs (a GPU driver) is missing or incomplete.
    UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE = 7,
    /// A system resource other than memory (file descriptors, handles) ran
    /// out.
    UMF_RESULT_ERROR_OUT_OF_RESOURCES = 8,
    /// Anything else.
    UMF_RESULT_ERROR_UNKNOWN = 0x7ffffffe
} umf_result_t;

#ifdef __cplusplus
}
#endif

#endif // UMF_BASE_H

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A stand-in for UMF 1.0's <umf/base.h>, written from the published 1.0
// headers' facts (names, values), for the stand-in 1.x consumer: what a
// program built against UMF 1.x sees. Not UMF's text.

#ifndef UMF_BASE_H
#define UMF_BASE_H 1

#include <stddef.h>
#include <stdint.h>

#define UMF_MAKE_VERSION(_major, _minor) (((_major) << 16) | ((_minor)&0xffff))
#define UMF_MAJOR_VERSION(_ver) ((_ver) >> 16)
#define UMF_MINOR_VERSION(_ver) ((_ver)&0xffff)
#define UMF_VERSION_CURRENT UMF_MAKE_VERSION(1, 0)

typedef enum umf_result_t {
    UMF_RESULT_SUCCESS = 0,
    UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY = 1,
    UMF_RESULT_ERROR_MEMORY_PROVIDER_SPECIFIC = 2,
    UMF_RESULT_ERROR_INVALID_ARGUMENT = 3,
    UMF_RESULT_ERROR_INVALID_ALIGNMENT = 4,
    UMF_RESULT_ERROR_NOT_SUPPORTED = 5,
    UMF_RESULT_ERROR_USER_SPECIFIC = 6,
    UMF_RESULT_ERROR_DEPENDENCY_UNAVAILABLE = 7,
    UMF_RESULT_ERROR_OUT_OF_RESOURCES = 8,
    UMF_RESULT_ERROR_UNKNOWN = 0x7ffffffe
} umf_result_t;

typedef enum umf_ctl_query_type {
    CTL_QUERY_READ,
    CTL_QUERY_WRITE,
    CTL_QUERY_RUNNABLE,
    CTL_QUERY_SUBTREE,
    MAX_CTL_QUERY_TYPE
} umf_ctl_query_type_t;

typedef enum ctl_query_source {
    CTL_UNKNOWN_QUERY_SOURCE,
    CTL_QUERY_PROGRAMMATIC,
    CTL_QUERY_CONFIG_INPUT
} umf_ctl_query_source_t;

#endif // UMF_BASE_H

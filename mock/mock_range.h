// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The bounds of every range a copy, fill, prefetch or advice of the emulated
// drivers touches: above the allocations (mock_memory.h) and the VMM
// mappings (mock_vmm.h), whose rules it applies.

#ifndef UMF_GPU_MOCK_RANGE_H
#define UMF_GPU_MOCK_RANGE_H 1

#include <stddef.h>

#include "mock_memory.h"
#include "mock_status.h"

// What a range check asks for the device (mapped VMM memory only: other
// driver memory is reachable by every device of the driver).
typedef enum umf_mock_use_t {
    UMF_MOCK_USE_MAPPED, // prefetch, advice: mapped is enough
    UMF_MOCK_USE_READ,   // the source of a copy
    UMF_MOCK_USE_WRITE,  // the destination of a copy or fill
} umf_mock_use_t;

// THE bounds rule of every copy, fill, prefetch and advice of both emulated
// drivers (their copy engines call nothing else to bound a range):
// - A range that starts in an allocation or imported mapping of the driver
//   must end inside the bytes asked for (its `size`; imports: the exported
//   size), not merely inside its page-rounded mapping, as a real driver
//   refuses a range past the end of an allocation whatever the page size.
//   An empty range may start at the end.
// - A range that starts in mapped VMM memory (UMF_MOCK_KIND_MAPPED) follows
//   the VMM's rule, umf_mock_vmm_check (mock_vmm.h): adjacent mappings of
//   one reservation are one range, and `device` needs the access `use`
//   asks for.
// Results:
//   UMF_MOCK_OK                 [ptr, ptr + n) is driver memory throughout;
//                               the record ptr is in goes to *info (if not
//                               NULL)
//   UMF_MOCK_ERR_NOT_FOUND      ptr is no memory of the driver (the
//                               caller's own host memory, or an error where
//                               the caller requires device memory); not
//                               logged
//   UMF_MOCK_ERR_INVALID_ARGUMENT  it starts in driver memory and runs past
//                               its end (or past what is mapped)
//   UMF_MOCK_ERR_PERMISSION     mapped memory `device` may not read (or
//                               write) as `use` asks
// A refusal is logged as "<call>: ... <what> ..." and becomes the reason of
// the thread's failed call (umf_mock_failure_explain).
umf_mock_status_t umf_mock_range_check(const void *ptr, size_t n, int device,
                                       umf_mock_use_t use, const char *call,
                                       const char *what,
                                       umf_mock_alloc_info_t *info);

#endif // UMF_GPU_MOCK_RANGE_H

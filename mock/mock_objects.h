// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The driver's own objects (contexts, command lists, events, ...), tracked
// by kind for the leak report, the control API's counts, and for telling a
// live handle from a destroyed or foreign one without touching it. Kinds
// are the indices of the driver's umf_mock_driver_desc_t.object_kinds.
// Not for hot paths: one lock guards the set.

#ifndef UMF_GPU_MOCK_OBJECTS_H
#define UMF_GPU_MOCK_OBJECTS_H 1

#include <stdbool.h>
#include <stddef.h>

#define UMF_MOCK_MAX_OBJECT_KINDS 16

// Kinds from UMF_MOCK_OBJECT_CORE_FIRST on are the core's own (they are
// reported by the module that owns them); a driver's kinds stay below.
#define UMF_MOCK_OBJECT_CORE_FIRST (UMF_MOCK_MAX_OBJECT_KINDS - 1)
#define UMF_MOCK_OBJECT_CORE_PHYS UMF_MOCK_OBJECT_CORE_FIRST // mock_vmm.h

// False when out of memory (nothing added) or `handle` is already there.
bool umf_mock_object_add(unsigned kind, const void *handle);
// False if `handle` of `kind` is not there.
bool umf_mock_object_remove(unsigned kind, const void *handle);
bool umf_mock_object_contains(unsigned kind, const void *handle);
size_t umf_mock_object_count(unsigned kind);

// Calls fn for every live object (the leak report).
void umf_mock_object_foreach(void (*fn)(unsigned kind, const void *handle,
                                        void *ctx),
                             void *ctx);

#endif // UMF_GPU_MOCK_OBJECTS_H

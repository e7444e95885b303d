// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The leak report: allocations, IPC handles, imported mappings and driver
// objects still alive. Written at exit (UMF_GPU_MOCK_LEAKS=report|strict)
// and on request (the control API).

#ifndef UMF_GPU_MOCK_LEAKS_H
#define UMF_GPU_MOCK_LEAKS_H 1

#include <stdint.h>

// Writes the report to `fd` if anything leaked. Returns the number of leaked
// things, or -1 when writing failed.
int64_t umf_mock_leak_report(int fd);

// At unload or exit: reports to stderr as UMF_GPU_MOCK_LEAKS says, and under
// strict mode ends the process with UMF_MOCK_LEAK_EXIT_STATUS on leaks.
void umf_mock_leaks_at_exit(void);

// The objects alive are not this process's to report (a child forked after
// the driver was initialised, which may not use them): no report at exit.
void umf_mock_leaks_disown(void);

#endif // UMF_GPU_MOCK_LEAKS_H

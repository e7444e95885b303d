// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The description of the last failed driver call in each thread, for a
// driver that offers one (Level Zero's zeDriverGetLastErrorDescription):
// "zeMemAllocDevice: ZE_RESULT_ERROR_UNSUPPORTED_SIZE: 0 bytes". A call
// that fails records its result on the way out; the reason, when the
// driver gives one, comes from the same call. Calls that succeed leave the
// description as it was. Kept in the thread's state (mock_thread.h),
// allocated at the thread's first failure; nothing on the success path.

#ifndef UMF_GPU_MOCK_FAILURE_H
#define UMF_GPU_MOCK_FAILURE_H 1

#include <stdint.h>

// The reason the current call of this thread fails (printf format).
void umf_mock_failure_explain(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

// The current call of this thread returns `result`, an error: the
// description becomes "<entry>: <result name>[: <reason>]". Returns
// `result`.
int64_t umf_mock_failure_record(int64_t result);

// The description of this thread's last failed call; "" before the first
// (or when it could not be stored). Valid until this thread's next failure.
const char *umf_mock_failure_text(void);

#endif // UMF_GPU_MOCK_FAILURE_H

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What every entry point reads when it is entered (cuda_mock_enter,
// cuda_mock_core.h): whether cuInit succeeded. Kept apart from cuInit
// (cuda_mock_driver.c) so that the files that only read it do not depend
// on the driver's bring-up, which reaches the contexts.

#include "cuda_mock_core.h"

_Atomic bool cuda_mock_initialized;

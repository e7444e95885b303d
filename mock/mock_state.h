// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// How the initialisation (mock_init.c) publishes the core's state
// (mock_core.c); everyone else reads it through mock_core.h.

#ifndef UMF_GPU_MOCK_STATE_H
#define UMF_GPU_MOCK_STATE_H 1

#include "mock_core.h"

// Stores the driver's description and the configuration, then makes
// umf_mock_ready() true. Called once, at the end of a successful init.
void umf_mock_state_publish(const umf_mock_driver_desc_t *desc,
                            const umf_mock_config_t *cfg);

#endif // UMF_GPU_MOCK_STATE_H

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Timed steps of the producer and the consumer, and the data pattern that
// each writes and the other checks.

#include <stdio.h>
#include <time.h>

#include "demo.h"

double demo_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

unsigned char demo_pattern(size_t i, uint32_t seed) {
    // Differs between neighbouring bytes, between 4 KiB pages and between
    // seeds, so that a shifted, stale or partial copy shows.
    return (unsigned char)((i * 131u) ^ (i >> 12) ^ (seed * 0x5bu));
}

void demo_pattern_fill(unsigned char *buf, size_t size, uint32_t seed) {
    for (size_t i = 0; i < size; i++) {
        buf[i] = demo_pattern(i, seed);
    }
}

int demo_pattern_check(const unsigned char *buf, size_t size, uint32_t seed,
                       demo_why_t *why) {
    for (size_t i = 0; i < size; i++) {
        if (buf[i] != demo_pattern(i, seed)) {
            return demo_why(why,
                            "byte %zu of %zu is 0x%02x, expected 0x%02x "
                            "(pattern %u)",
                            i, size, buf[i], demo_pattern(i, seed),
                            (unsigned)seed);
        }
    }
    return 0;
}

void demo_step_begin(demo_steps_t *steps, const char *name) {
    if (steps->count == DEMO_MAX_STEPS) {
        steps->count--; // reuse the last slot rather than overflow
    }
    demo_step_t *s = &steps->step[steps->count++];
    snprintf(s->name, sizeof(s->name), "%s", name);
    s->ok = 0;
    s->ms = demo_now_ms();
}

void demo_step_rename(demo_steps_t *steps, const char *name) {
    demo_step_t *s = &steps->step[steps->count - 1];
    snprintf(s->name, sizeof(s->name), "%s", name);
}

int demo_step_end(demo_steps_t *steps, int ret, const demo_why_t *why) {
    demo_step_t *s = &steps->step[steps->count - 1];
    s->ms = demo_now_ms() - s->ms;
    s->ok = ret == 0;
    if (ret != 0 && !steps->failed) {
        steps->failed = 1;
        snprintf(steps->why, sizeof(steps->why), "%s", why->text);
    }
    return ret;
}

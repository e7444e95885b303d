// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "util_hash_map.h"

#include <stdbool.h>
#include <stdlib.h>

#define MIN_CAPACITY 16

static inline size_t bucket_of(const umf_hash_map_t *map, uint64_t key) {
    return (size_t)umf_hash_u64(key) & map->mask;
}

void *umf_hash_map_get(const umf_hash_map_t *map, uint64_t key) {
    if (map->slots == NULL) {
        return NULL;
    }
    for (size_t i = bucket_of(map, key);; i = (i + 1) & map->mask) {
        const umf_hash_map_slot_t *slot = &map->slots[i];
        if (slot->value == NULL) {
            return NULL;
        }
        if (slot->key == key) {
            return slot->value;
        }
    }
}

// Places a key known to be absent into a table with a free slot.
static void place(umf_hash_map_slot_t *slots, size_t mask, uint64_t key,
                  void *value) {
    size_t i = (size_t)umf_hash_u64(key) & mask;
    while (slots[i].value != NULL) {
        i = (i + 1) & mask;
    }
    slots[i].key = key;
    slots[i].value = value;
}

static umf_result_t grow_to(umf_hash_map_t *map, size_t capacity) {
    umf_hash_map_slot_t *slots = calloc(capacity, sizeof(*slots));
    if (slots == NULL) {
        return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    if (map->slots != NULL) {
        for (size_t i = 0; i <= map->mask; i++) {
            if (map->slots[i].value != NULL) {
                place(slots, capacity - 1, map->slots[i].key,
                      map->slots[i].value);
            }
        }
        free(map->slots);
    }
    map->slots = slots;
    map->mask = capacity - 1;
    return UMF_RESULT_SUCCESS;
}

umf_result_t umf_hash_map_reserve(umf_hash_map_t *map, size_t extra) {
    size_t need = map->count + extra;
    if (need < map->count ||
        need > SIZE_MAX / 2 / sizeof(umf_hash_map_slot_t)) {
        return UMF_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    size_t capacity = map->slots ? map->mask + 1 : 0;
    // Keep the load at most 3/4.
    if (capacity != 0 && need <= capacity - capacity / 4) {
        return UMF_RESULT_SUCCESS;
    }
    size_t new_capacity = capacity ? capacity : MIN_CAPACITY;
    while (need > new_capacity - new_capacity / 4) {
        new_capacity *= 2;
    }
    return grow_to(map, new_capacity);
}

umf_result_t umf_hash_map_put(umf_hash_map_t *map, uint64_t key, void *value) {
    if (value == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    if (map->slots != NULL) {
        for (size_t i = bucket_of(map, key);; i = (i + 1) & map->mask) {
            umf_hash_map_slot_t *slot = &map->slots[i];
            if (slot->value == NULL) {
                break;
            }
            if (slot->key == key) {
                slot->value = value;
                return UMF_RESULT_SUCCESS;
            }
        }
    }
    umf_result_t ret = umf_hash_map_reserve(map, 1);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    place(map->slots, map->mask, key, value);
    map->count++;
    return UMF_RESULT_SUCCESS;
}

umf_result_t umf_hash_map_put_new(umf_hash_map_t *map, uint64_t key,
                                  void *value) {
    if (value == NULL) {
        return UMF_RESULT_ERROR_INVALID_ARGUMENT;
    }
    umf_result_t ret = umf_hash_map_reserve(map, 1);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    size_t i = bucket_of(map, key);
    for (; map->slots[i].value != NULL; i = (i + 1) & map->mask) {
        if (map->slots[i].key == key) {
            return UMF_RESULT_ERROR_INVALID_ARGUMENT;
        }
    }
    map->slots[i].key = key;
    map->slots[i].value = value;
    map->count++;
    return UMF_RESULT_SUCCESS;
}

void *umf_hash_map_remove(umf_hash_map_t *map, uint64_t key) {
    if (map->slots == NULL) {
        return NULL;
    }
    size_t i = bucket_of(map, key);
    for (;; i = (i + 1) & map->mask) {
        if (map->slots[i].value == NULL) {
            return NULL;
        }
        if (map->slots[i].key == key) {
            break;
        }
    }
    void *value = map->slots[i].value;
    // Backward-shift deletion: move later members of the run into the hole
    // when their home bucket does not lie (cyclically) between the hole and
    // their position, so every key stays reachable from its bucket.
    size_t hole = i;
    for (size_t j = (i + 1) & map->mask; map->slots[j].value != NULL;
         j = (j + 1) & map->mask) {
        size_t home = bucket_of(map, map->slots[j].key);
        bool home_in_gap =
            hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
        if (!home_in_gap) {
            map->slots[hole] = map->slots[j];
            hole = j;
        }
    }
    map->slots[hole].value = NULL;
    map->slots[hole].key = 0;
    map->count--;
    return value;
}

void umf_hash_map_foreach(const umf_hash_map_t *map,
                          void (*fn)(uint64_t key, void *value, void *arg),
                          void *arg) {
    if (map->slots == NULL) {
        return;
    }
    for (size_t i = 0; i <= map->mask; i++) {
        if (map->slots[i].value != NULL) {
            fn(map->slots[i].key, map->slots[i].value, arg);
        }
    }
}

void umf_hash_map_clear(umf_hash_map_t *map) {
    free(map->slots);
    map->slots = NULL;
    map->mask = 0;
    map->count = 0;
}

/*
 * Helpers shared by the libFuzzer targets: every buffer handed to the core is its own
 * heap block of exactly the declared length, so AddressSanitizer sees any access past it.
 */
#ifndef FS_FUZZ_COMMON_H
#define FS_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "finscore_core.h"

/* A copy of n bytes in a block of exactly n bytes (a 1-byte block for n == 0, never NULL). */
static inline void *fs_fuzz_copy(const uint8_t *data, size_t n) {
    void *block = malloc(n ? n : 1);
    if (block == NULL) abort();
    if (n) memcpy(block, data, n);
    return block;
}

/* A zeroed block of count elements of size bytes each (never NULL). */
static inline void *fs_fuzz_zeroed(size_t count, size_t size) {
    void *block = calloc(count ? count : 1, size);
    if (block == NULL) abort();
    return block;
}

/* Every status the core may return is one the ABI names (core/abi.toml, generated into
   fs_status_name): a status it cannot name is a bug. */
static inline void fs_fuzz_check_status(int32_t status) {
    if (strcmp(fs_status_name(status), "unknown_status") == 0) {
        abort();
    }
}

#endif

/* Internal helpers shared by the core's translation units; not part of the ABI. */
#ifndef FS_INTERNAL_H
#define FS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* 1e0 .. 1e22: the powers of ten that are exact doubles. */
extern const double FS_POWERS_OF_TEN[23];

/* n in 0..22 when scale is exactly 10**n, else -1. */
int fs_decimal_places_of_scale(double scale);

/* CPython's round(x, places) for places in 0..22. */
double fs_round_places(double x, int places);

/* Whether count elements of element_size bytes at `at` lie inside linear memory, so that a
 * dishonest length gets a status before anything is written (never a trap, never a wipe).
 * WebAssembly only: a native build cannot know its buffers' ends and trusts the lengths. */
static inline int fs_fits_memory(const void *at, int64_t count, int64_t element_size) {
#ifdef __wasm__
    uint64_t end = (uint64_t)(uintptr_t)at + (uint64_t)count * (uint64_t)element_size;
    return count >= 0 && end <= (uint64_t)__builtin_wasm_memory_size(0) * 65536u;
#else
    (void)at;
    return count >= 0 && element_size >= 0;
#endif
}

#endif /* FS_INTERNAL_H */

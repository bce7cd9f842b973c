/*
 * The batch entry points with their arguments in linear memory.
 *
 * Some hosts pay per argument on every call (wasmtime-py converts and type-checks
 * each one: 22 arguments cost it about 0.15 ms, which is more than the core needs
 * for a thousand programs). These variants take one array of 64-bit values, in
 * the order of the plain signature (pointers and lengths alike), check its length
 * and every value's range, and make the plain call.
 */
#include <stddef.h>
#include <stdint.h>

#include "finscore_core.h"

#define READ_EXECUTE_ARGUMENTS 22
#define EXECUTE_BATCH_ARGUMENTS 13

/* A pointer from its integer value (0 stays NULL). */
static const void *pointer(int64_t value) { return (const void *)(uintptr_t)value; }

/* Whether each value fits its place: a pointer where `pointers` says so, else an int32. */
static int in_range(const int64_t *arguments, int32_t count, const char *pointers) {
    int32_t i;
    for (i = 0; i < count; i++) {
        int64_t v = arguments[i];
        if (pointers[i] == 'p' ? (v < 0 || (uint64_t)v > (uint64_t)UINTPTR_MAX)
                               : (v < INT32_MIN || v > INT32_MAX))
            return 0;
    }
    return 1;
}

int32_t fs_read_execute_batch_packed(const int64_t *a, int32_t count) {
    if (a == NULL || count != READ_EXECUTE_ARGUMENTS) return FS_ERR_BUFFER_TOO_SHORT;
    if (!in_range(a, count, "piipipipiipipipipipipi")) return FS_ERR_NULL_BUFFER;
    return fs_read_execute_batch(
        (const unsigned char *)pointer(a[0]), (int32_t)a[1], (int32_t)a[2],
        (const unsigned char *)pointer(a[3]), (int32_t)a[4], (const int32_t *)pointer(a[5]), (int32_t)a[6],
        (const int32_t *)pointer(a[7]), (int32_t)a[8], (int32_t)a[9],
        (fs_step *)(uintptr_t)a[10], (int32_t)a[11], (double *)(uintptr_t)a[12], (int32_t)a[13],
        (double *)(uintptr_t)a[14], (int32_t)a[15], (int32_t *)(uintptr_t)a[16], (int32_t)a[17],
        (int32_t *)(uintptr_t)a[18], (int32_t)a[19], (fs_result *)(uintptr_t)a[20], (int32_t)a[21]);
}

int32_t fs_execute_batch_packed(const int64_t *a, int32_t count) {
    if (a == NULL || count != EXECUTE_BATCH_ARGUMENTS) return FS_ERR_BUFFER_TOO_SHORT;
    if (!in_range(a, count, "pipipiipipipi")) return FS_ERR_NULL_BUFFER;
    return fs_execute_batch(
        (const fs_program *)pointer(a[0]), (int32_t)a[1], (const fs_step *)pointer(a[2]), (int32_t)a[3],
        (const double *)pointer(a[4]), (int32_t)a[5], (int32_t)a[6],
        (double *)(uintptr_t)a[7], (int32_t)a[8], (int32_t *)(uintptr_t)a[9], (int32_t)a[10],
        (fs_result *)(uintptr_t)a[11], (int32_t)a[12]);
}

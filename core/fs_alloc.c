/*
 * Buffer management for hosts: fs_alloc and fs_free.
 *
 * A host reserves linear memory once per batch with fs_alloc, writes the input
 * records, calls a batch entry point and reads the outputs; nothing in the walker
 * or the reader allocates, so memory grows only inside fs_alloc.
 *
 * Each block carries a 16-byte header in front of it holding its own address
 * scrambled with a constant, so that fs_free can refuse a pointer fs_alloc did not
 * return (or one freed already) instead of corrupting the heap: a host's mistake
 * gets a status. 16 bytes keep the block as aligned as malloc's (at least 8).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "finscore_core.h"
#include "fs_internal.h"

#define HEADER_BYTES 16
#define BLOCK_MARK UINT64_C(0x66735f616c6c6f63) /* "fs_alloc" */

static uint64_t mark_of(const unsigned char *block) { return (uint64_t)(uintptr_t)block ^ BLOCK_MARK; }

void *fs_alloc(int32_t size) {
    unsigned char *block;
    if (size <= 0 || size > INT32_MAX - HEADER_BYTES) return NULL;
    block = malloc((size_t)size + HEADER_BYTES);
    if (block == NULL) return NULL;
    *(uint64_t *)(void *)block = mark_of(block);
    return block + HEADER_BYTES;
}

int32_t fs_free(void *pointer) {
    unsigned char *block;
    if (pointer == NULL) return FS_OK;
    if ((uintptr_t)pointer % 8 != 0 || (uintptr_t)pointer < HEADER_BYTES) return FS_ERR_NOT_ALLOCATED;
    block = (unsigned char *)pointer - HEADER_BYTES;
    if (!fs_fits_memory(block, HEADER_BYTES, 1)) return FS_ERR_NOT_ALLOCATED;
    if (*(uint64_t *)(void *)block != mark_of(block)) return FS_ERR_NOT_ALLOCATED;
    *(uint64_t *)(void *)block = 0; /* a second fs_free of it is refused */
    free(block);
    return FS_OK;
}

#ifdef __EMSCRIPTEN__
/* emscripten's malloc tells its JavaScript glue when memory grows. A standalone module
 * has no glue (hosts re-read the memory's size themselves), so the notification is
 * defined here as nothing, which keeps the module free of imports. */
void emscripten_notify_memory_growth(size_t memory_index);
void emscripten_notify_memory_growth(size_t memory_index) { (void)memory_index; }
#endif

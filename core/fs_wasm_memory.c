/*
 * Buffer management for hosts of the WebAssembly module (not built natively).
 *
 * A host reserves linear memory once per batch with fs_alloc, writes the input
 * records, calls fs_execute_batch and reads the outputs; nothing in the walker
 * allocates. fs_alloc returns 0 when memory cannot grow.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

void *fs_alloc(int32_t size) {
    if (size <= 0) return 0;
    return malloc((size_t)size);
}

void fs_free(void *pointer) { free(pointer); }

/* emscripten's malloc tells its JavaScript glue when memory grows. A standalone module
 * has no glue (hosts re-read the memory's size themselves), so the notification is
 * defined here as nothing, which keeps the module free of imports. */
void emscripten_notify_memory_growth(size_t memory_index);
void emscripten_notify_memory_growth(size_t memory_index) { (void)memory_index; }

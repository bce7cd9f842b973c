/*
 * libFuzzer target: fs_read_execute_batch, the core's reader of plain token programs.
 *
 * Input: program text, then optionally a 0x00 byte and one table's text (rows by 0x1E,
 * cells by 0x1F). Programs are separated by 0x1E and tokens by 0x1F, as the hosts lay them
 * out. The first byte picks the summation rule and whether the table is attached. Output
 * buffers get exactly the room the Python host gives them (see binding.read_execute_batch).
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > (1u << 20)) return 0;
    int32_t sum_rule = data[0] & 1;
    int attach_table = (data[0] >> 1) & 1;
    data++, size--;
    const uint8_t *split = memchr(data, 0, size);
    size_t text_len = split ? (size_t)(split - data) : size;
    size_t table_len = split ? size - text_len - 1 : 0;

    int32_t programs = 1, tokens = 1;
    for (size_t i = 0; i < text_len; i++) {
        if (data[i] == 0x1e) programs++, tokens++;
        if (data[i] == 0x1f) tokens++;
    }
    int32_t cells = 1;
    for (size_t i = 0; i < table_len; i++) {
        if (split[1 + i] == 0x1e || split[1 + i] == 0x1f) cells++;
    }
    int32_t steps = tokens / 4 + 1;
    int32_t table_values_len = 4 * cells + 64;

    unsigned char *text = fs_fuzz_copy(data, text_len);
    unsigned char *tables = fs_fuzz_copy(split ? split + 1 : data, table_len);
    int32_t *spans = fs_fuzz_zeroed(2, sizeof(int32_t));
    spans[0] = 0;
    spans[1] = (int32_t)table_len;
    int32_t *program_tables = fs_fuzz_zeroed((size_t)programs, sizeof(int32_t));
    for (int32_t p = 0; p < programs; p++) program_tables[p] = (attach_table && split) ? 0 : -1;
    fs_step *step_buffer = fs_fuzz_zeroed((size_t)steps, sizeof(fs_step));
    double *table_values = fs_fuzz_zeroed((size_t)table_values_len, sizeof(double));
    double *values = fs_fuzz_zeroed((size_t)steps, sizeof(double));
    int32_t *types = fs_fuzz_zeroed((size_t)steps, sizeof(int32_t));
    int32_t *program_spans = fs_fuzz_zeroed(2 * (size_t)programs, sizeof(int32_t));
    fs_result *results = fs_fuzz_zeroed((size_t)programs, sizeof(fs_result));

    int32_t status = fs_read_execute_batch(
        text, (int32_t)text_len, programs, tables, (int32_t)table_len, spans, split ? 1 : 0,
        program_tables, programs, sum_rule, step_buffer, steps, table_values, table_values_len,
        values, steps, types, steps, program_spans, 2 * programs, results, programs);
    fs_fuzz_check_status(status);
    if (status == FS_OK) {
        for (int32_t p = 0; p < programs; p++) {
            fs_fuzz_check_status(results[p].status);
            if (results[p].status == FS_OK && results[p].has_value != 1) abort();
        }
    }
    free(text), free(tables), free(spans), free(program_tables), free(step_buffer);
    free(table_values), free(values), free(types), free(program_spans), free(results);
    return 0;
}

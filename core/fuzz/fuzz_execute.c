/*
 * libFuzzer target: fs_execute and fs_execute_batch on raw records.
 *
 * Input: a 4-byte header, then raw fs_step records (56 bytes each), then raw doubles for
 * the table. Header byte 0: summation rule (low bit); byte 1: number of steps taken as
 * records (the rest of the record bytes stay in the steps buffer as extra length);
 * bytes 2-3: how the batch splits the steps into programs. The records are not cleaned:
 * unknown ops, kinds, references and table slices are what the core must refuse.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 4 || size > (1u << 16)) return 0;
    int32_t sum_rule = data[0] & 1;
    size_t record_bytes = (size_t)data[1] * sizeof(fs_step);
    uint16_t split_bits = (uint16_t)(data[2] | (data[3] << 8));
    data += 4, size -= 4;
    if (record_bytes > size) record_bytes = size - size % sizeof(fs_step);
    int32_t steps_len = (int32_t)(record_bytes / sizeof(fs_step));
    int32_t table_len = (int32_t)((size - record_bytes) / sizeof(double));

    fs_step *steps = fs_fuzz_copy(data, (size_t)steps_len * sizeof(fs_step));
    double *table = fs_fuzz_copy(data + record_bytes, (size_t)table_len * sizeof(double));
    double *values = fs_fuzz_zeroed((size_t)steps_len, sizeof(double));
    int32_t *types = fs_fuzz_zeroed((size_t)steps_len, sizeof(int32_t));
    fs_result result;

    /* one program: every record, or fewer steps than the buffer holds */
    int32_t step_count = steps_len - (int32_t)(split_bits % 2 && steps_len ? 1 : 0);
    fs_fuzz_check_status(fs_execute(steps, steps_len, step_count, table, table_len, sum_rule,
                                    values, steps_len, types, steps_len, &result));
    fs_fuzz_check_status(result.status);

    /* a batch: consecutive programs whose sizes come from the split bits */
    int32_t program_count = 0;
    fs_program *programs = fs_fuzz_zeroed((size_t)steps_len + 1, sizeof(fs_program));
    for (int32_t first = 0; first < steps_len;) {
        int32_t count = 1 + (int32_t)((split_bits >> (2 * (program_count % 8))) & 3);
        if (first + count > steps_len) count = steps_len - first;
        programs[program_count].first_step = first;
        programs[program_count].step_count = count;
        program_count++;
        first += count;
    }
    fs_result *results = fs_fuzz_zeroed((size_t)program_count, sizeof(fs_result));
    int32_t status = fs_execute_batch(programs, program_count, steps, steps_len, table, table_len,
                                      sum_rule, values, steps_len, types, steps_len, results,
                                      program_count);
    fs_fuzz_check_status(status);
    if (status == FS_OK) {
        for (int32_t p = 0; p < program_count; p++) fs_fuzz_check_status(results[p].status);
    }
    free(steps), free(table), free(values), free(types), free(programs), free(results);
    return 0;
}

/* Names of status codes and the layout self-description of the ABI. */
#include "finscore_core.h"

static const char *const STATUS_NAMES[FS_STATUS_LAST - FS_STATUS_FIRST + 1] = {
    "ok",
    "no_steps",
    "buffer_too_short",
    "null_buffer",
    "unknown_op",
    "bad_argument_kind",
    "forward_reference",
    "self_reference",
    "reference_out_of_range",
    "reference_to_boolean",
    "table_slice_out_of_bounds",
    "empty_row",
    "divide_by_zero",
    "zero_to_negative_power",
    "negative_base_fractional_exponent",
    "exp_overflow",
    "unknown_sum_rule",
    "bad_scale",
    "exp_complex_overflow",
    "deferred",
};

const char *fs_status_name(int32_t status) {
    if (status == FS_READ_BAD_NUMBER) return "bad_number";
    if (status == FS_READ_UNKNOWN_ROW) return "unknown_row";
    if (status < FS_STATUS_FIRST || status > FS_STATUS_LAST) return "unknown_status";
    return STATUS_NAMES[status - FS_STATUS_FIRST];
}

int32_t fs_abi_version(void) { return FS_ABI_VERSION; }
int32_t fs_sizeof_step(void) { return (int32_t)sizeof(fs_step); }
int32_t fs_sizeof_program(void) { return (int32_t)sizeof(fs_program); }
int32_t fs_sizeof_result(void) { return (int32_t)sizeof(fs_result); }

/* The documented layout is the ABI: fail the build if the compiler disagrees. */
typedef char fs_check_arg_size[sizeof(fs_arg) == 24 ? 1 : -1];
typedef char fs_check_step_size[sizeof(fs_step) == 56 ? 1 : -1];
typedef char fs_check_program_size[sizeof(fs_program) == 8 ? 1 : -1];
typedef char fs_check_result_size[sizeof(fs_result) == 40 ? 1 : -1];

/*
 * The step walker: one resolved program in, one typed outcome out.
 *
 * Steps run in order; each keeps its own unrounded value, as the official
 * evaluator does, and only the last step is rounded (to 5 places). The first
 * step that cannot produce a float or a boolean stops the walk with a typed
 * status and no value: the core never makes up a number and never traps.
 * Nothing here allocates; every index is checked against its buffer's length.
 */
#include <math.h>
#include <stddef.h>

#include "finscore_core.h"
#include "fs_internal.h"

#define FS_FINAL_PLACES 5

typedef struct walk {
    const fs_step *steps;
    int32_t step_count;
    const double *table_values;
    int32_t table_len;
    int32_t sum_rule;
    double *values;
    int32_t *types;
} walk;

/* Value of a literal or reference argument of an arithmetic step at index `at`. */
static int32_t scalar_argument(const walk *w, int32_t at, const fs_arg *arg, double *out) {
    if (arg->kind == FS_ARG_LITERAL) {
        *out = arg->number;
        return FS_OK;
    }
    if (arg->kind != FS_ARG_REFERENCE) return FS_ERR_BAD_ARGUMENT_KIND;
    if (arg->index < 0 || arg->index >= w->step_count) return FS_ERR_REFERENCE_OUT_OF_RANGE;
    if (arg->index == at) return FS_ERR_SELF_REFERENCE;
    if (arg->index > at) return FS_ERR_FORWARD_REFERENCE;
    if (w->types[arg->index] == FS_TYPE_BOOL) return FS_ERR_REFERENCE_TO_BOOLEAN;
    *out = w->values[arg->index];
    return FS_OK;
}

static int32_t arithmetic_step(const walk *w, int32_t at, const fs_step *step, double *out,
                               int32_t *type) {
    double a, b;
    int32_t status = scalar_argument(w, at, &step->args[0], &a);
    if (status != FS_OK) return status;
    status = scalar_argument(w, at, &step->args[1], &b);
    if (status != FS_OK) return status;

    *type = FS_TYPE_FLOAT;
    switch (step->op) {
    case FS_OP_ADD:
        *out = a + b;
        return FS_OK;
    case FS_OP_SUBTRACT:
        *out = a - b;
        return FS_OK;
    case FS_OP_MULTIPLY:
        *out = a * b;
        return FS_OK;
    case FS_OP_DIVIDE:
        if (b == 0.0) return FS_ERR_DIVIDE_BY_ZERO; /* Python raises, whatever a is */
        *out = a / b;
        return FS_OK;
    case FS_OP_EXP:
        return fs_python_pow(a, b, out);
    default: /* FS_OP_GREATER */
        *type = FS_TYPE_BOOL;
        *out = a > b ? 1.0 : 0.0; /* a comparison with nan is false: "no" */
        return FS_OK;
    }
}

/* Python's max()/min(): the first element wins ties, and an element replaces the
 * current one only when strictly greater (smaller), so comparisons with nan are false. */
static double extreme(const double *row, int32_t length, int want_max) {
    double best = row[0];
    int32_t i;
    for (i = 1; i < length; i++) {
        if (want_max ? row[i] > best : row[i] < best) best = row[i];
    }
    return best;
}

static int32_t table_step(const walk *w, const fs_step *step, double *out, int32_t *type) {
    const fs_arg *row_arg = &step->args[0];
    const double *row;
    int32_t status;

    if (row_arg->kind != FS_ARG_TABLE_ROW) return FS_ERR_BAD_ARGUMENT_KIND;
    if (row_arg->index < 0 || row_arg->length < 0 || row_arg->index > w->table_len ||
        row_arg->length > w->table_len - row_arg->index)
        return FS_ERR_TABLE_SLICE_OUT_OF_BOUNDS;
    if (row_arg->length == 0) return FS_ERR_EMPTY_ROW;
    row = w->table_values + row_arg->index;

    *type = FS_TYPE_FLOAT;
    switch (step->op) {
    case FS_OP_TABLE_MAX:
        *out = extreme(row, row_arg->length, 1);
        return FS_OK;
    case FS_OP_TABLE_MIN:
        *out = extreme(row, row_arg->length, 0);
        return FS_OK;
    case FS_OP_TABLE_SUM:
        return fs_python_sum(row, row_arg->length, w->sum_rule, out);
    default: /* FS_OP_TABLE_AVERAGE: Python's sum(row) / len(row) */
        status = fs_python_sum(row, row_arg->length, w->sum_rule, out);
        if (status == FS_OK) *out = *out / (double)row_arg->length;
        return status;
    }
}

static void clear_result(fs_result *result) {
    result->status = FS_OK;
    result->has_value = 0;
    result->value_type = FS_TYPE_NONE;
    result->failed_step = -1;
    result->value = 0.0;
    result->unrounded = 0.0;
    result->steps_executed = 0;
    result->reserved = 0;
}

static int32_t refuse(fs_result *result, int32_t status, int32_t failed_step) {
    result->status = status;
    result->failed_step = failed_step;
    return status;
}

/* Walk a program whose buffers have all been checked. */
static int32_t walk_program(const walk *w, fs_result *result) {
    int32_t i;
    double value = 0.0;
    int32_t type = FS_TYPE_NONE;

    for (i = 0; i < w->step_count; i++) {
        w->types[i] = FS_TYPE_NONE;
        w->values[i] = 0.0;
    }
    for (i = 0; i < w->step_count; i++) {
        const fs_step *step = &w->steps[i];
        int32_t status;
        if (step->op < 0 || step->op >= FS_OP_COUNT) return refuse(result, FS_ERR_UNKNOWN_OP, i);
        status = step->op <= FS_OP_GREATER ? arithmetic_step(w, i, step, &value, &type)
                                           : table_step(w, step, &value, &type);
        if (status != FS_OK) return refuse(result, status, i);
        w->values[i] = value;
        w->types[i] = type;
        result->steps_executed = i + 1;
    }
    result->has_value = 1;
    result->value_type = type;
    result->unrounded = value;
    result->value = type == FS_TYPE_FLOAT ? fs_round_places(value, FS_FINAL_PLACES) : value;
    return FS_OK;
}

/* Whether every buffer of a call lies inside linear memory at its declared length. */
static int buffers_fit_memory(const fs_step *steps, int32_t steps_len, const double *table_values,
                              int32_t table_len, const double *step_values, int32_t step_values_len,
                              const int32_t *step_types, int32_t step_types_len) {
    return fs_fits_memory(steps, steps_len, sizeof *steps) &&
           fs_fits_memory(table_values, table_len, sizeof *table_values) &&
           fs_fits_memory(step_values, step_values_len, sizeof *step_values) &&
           fs_fits_memory(step_types, step_types_len, sizeof *step_types);
}

int32_t fs_execute(const fs_step *steps, int32_t steps_len, int32_t step_count,
                   const double *table_values, int32_t table_len, int32_t sum_rule,
                   double *step_values, int32_t step_values_len,
                   int32_t *step_types, int32_t step_types_len, fs_result *result) {
    walk w;
    if (result == NULL) return FS_ERR_NULL_BUFFER;
    if (!fs_fits_memory(result, 1, sizeof *result)) return FS_ERR_BUFFER_OUTSIDE_MEMORY;
    clear_result(result);
    if (steps_len < 0 || table_len < 0 || step_values_len < 0 || step_types_len < 0 ||
        step_count < 0)
        return refuse(result, FS_ERR_NEGATIVE_LENGTH, -1);
    if (step_count == 0) return refuse(result, FS_ERR_NO_STEPS, -1);
    if (steps == NULL || step_values == NULL || step_types == NULL ||
        (table_values == NULL && table_len > 0))
        return refuse(result, FS_ERR_NULL_BUFFER, -1);
    if (step_count > steps_len || step_count > step_values_len || step_count > step_types_len)
        return refuse(result, FS_ERR_BUFFER_TOO_SHORT, -1);
    if (!buffers_fit_memory(steps, steps_len, table_values, table_len, step_values, step_values_len,
                            step_types, step_types_len))
        return refuse(result, FS_ERR_BUFFER_OUTSIDE_MEMORY, -1);
    if (sum_rule != FS_SUM_PY311 && sum_rule != FS_SUM_PY312)
        return refuse(result, FS_ERR_UNKNOWN_SUM_RULE, -1);

    w.steps = steps;
    w.step_count = step_count;
    w.table_values = table_values;
    w.table_len = table_len;
    w.sum_rule = sum_rule;
    w.values = step_values;
    w.types = step_types;
    return walk_program(&w, result);
}

int32_t fs_execute_batch(const fs_program *programs, int32_t program_count,
                         const fs_step *steps, int32_t steps_len,
                         const double *table_values, int32_t table_len, int32_t sum_rule,
                         double *step_values, int32_t step_values_len,
                         int32_t *step_types, int32_t step_types_len,
                         fs_result *results, int32_t results_len) {
    int32_t p;
    if (program_count < 0 || steps_len < 0 || table_len < 0 || step_values_len < 0 ||
        step_types_len < 0 || results_len < 0)
        return FS_ERR_NEGATIVE_LENGTH;
    if (program_count == 0) return FS_OK;
    if (programs == NULL || results == NULL || (table_values == NULL && table_len > 0))
        return FS_ERR_NULL_BUFFER;
    if (steps_len > 0 && (steps == NULL || step_values == NULL || step_types == NULL))
        return FS_ERR_NULL_BUFFER;
    if (program_count > results_len) return FS_ERR_BUFFER_TOO_SHORT;
    if (step_values_len < steps_len || step_types_len < steps_len) return FS_ERR_BUFFER_TOO_SHORT;
    if (!fs_fits_memory(programs, program_count, sizeof *programs) ||
        !fs_fits_memory(results, results_len, sizeof *results) ||
        !buffers_fit_memory(steps, steps_len, table_values, table_len, step_values, step_values_len,
                            step_types, step_types_len))
        return FS_ERR_BUFFER_OUTSIDE_MEMORY;
    if (sum_rule != FS_SUM_PY311 && sum_rule != FS_SUM_PY312) return FS_ERR_UNKNOWN_SUM_RULE;

    for (p = 0; p < program_count; p++) {
        const fs_program *program = &programs[p];
        int32_t first = program->first_step, count = program->step_count;
        if (count <= 0 || first < 0 || first > steps_len || count > steps_len - first) {
            /* no steps, a negative count, or declared steps outside the steps buffer */
            clear_result(&results[p]);
            refuse(&results[p], count == 0  ? FS_ERR_NO_STEPS
                                : count < 0 ? FS_ERR_NEGATIVE_LENGTH
                                            : FS_ERR_BUFFER_TOO_SHORT, -1);
            continue;
        }
        fs_execute(steps + first, steps_len - first, count, table_values, table_len, sum_rule,
                   step_values + first, step_values_len - first, step_types + first,
                   step_types_len - first, &results[p]);
    }
    return FS_OK;
}

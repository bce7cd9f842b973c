/*
 * Native C tests of the core, built with -Wall -Wextra -Werror under AddressSanitizer
 * and UndefinedBehaviorSanitizer by tests/core/test_native.py.
 *
 * Expected values are facts stated by the FinQA specification or computable by hand
 * (and each is also checked against CPython by the Python tests): they are not
 * outputs of this code. Run with GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA so that glibc's
 * pow is the non-FMA variant, which agrees with musl's inside the WebAssembly module.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "finscore_core.h"

static int failures = 0;

#define CHECK(cond)                                                        \
    do {                                                                   \
        if (!(cond)) {                                                     \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                    \
        }                                                                  \
    } while (0)

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static fs_arg lit(double v) {
    fs_arg a;
    memset(&a, 0, sizeof a);
    a.kind = FS_ARG_LITERAL;
    a.number = v;
    return a;
}
static fs_arg ref(int32_t j) {
    fs_arg a;
    memset(&a, 0, sizeof a);
    a.kind = FS_ARG_REFERENCE;
    a.index = j;
    return a;
}
static fs_arg row(int32_t offset, int32_t length) {
    fs_arg a;
    memset(&a, 0, sizeof a);
    a.kind = FS_ARG_TABLE_ROW;
    a.index = offset;
    a.length = length;
    return a;
}
static fs_step step(int32_t op, fs_arg a, fs_arg b) {
    fs_step s;
    memset(&s, 0, sizeof s);
    s.op = op;
    s.args[0] = a;
    s.args[1] = b;
    return s;
}

/* Run a program of n steps with exact-length buffers. */
static fs_result run(const fs_step *steps, int32_t n, const double *table, int32_t table_len,
                     int32_t rule, double *values, int32_t *types) {
    fs_result r;
    fs_execute(steps, n, n, table, table_len, rule, values, n, types, n, &r);
    return r;
}

static void test_worked_programs(void) {
    double values[4];
    int32_t types[4];
    double table[] = {13053.0, 18874.0, 13.14, 10.64, 208.0, 212.0};
    fs_step p1[] = {step(FS_OP_DIVIDE, lit(100), lit(100)), step(FS_OP_DIVIDE, lit(3.8), ref(0))};
    fs_step p2[] = {step(FS_OP_SUBTRACT, lit(34.8), lit(1.2)), step(FS_OP_DIVIDE, ref(0), lit(34.8)),
                    step(FS_OP_MULTIPLY, ref(1), lit(100))};
    fs_step avg[] = {step(FS_OP_TABLE_AVERAGE, row(0, 2), lit(0))};
    fs_step mx[] = {step(FS_OP_TABLE_MAX, row(2, 2), lit(0))};
    fs_step mn[] = {step(FS_OP_TABLE_MIN, row(4, 2), lit(0))};
    fs_step sm[] = {step(FS_OP_TABLE_SUM, row(0, 2), lit(0))};
    fs_step gt[] = {step(FS_OP_GREATER, lit(2), lit(1))};
    fs_result r;

    r = run(p1, 2, 0, 0, FS_SUM_PY311, values, types);
    CHECK(r.status == FS_OK && r.has_value && r.value_type == FS_TYPE_FLOAT && r.value == 3.8);
    r = run(p2, 3, 0, 0, FS_SUM_PY311, values, types);
    CHECK(r.status == FS_OK && r.value == 96.55172 && r.failed_step == -1 && r.steps_executed == 3);
    CHECK(types[0] == FS_TYPE_FLOAT && types[2] == FS_TYPE_FLOAT && values[2] == r.unrounded);
    r = run(avg, 1, table, 6, FS_SUM_PY311, values, types);
    CHECK(r.status == FS_OK && r.value == 15963.5);
    r = run(mx, 1, table, 6, FS_SUM_PY311, values, types);
    CHECK(r.status == FS_OK && r.value == 13.14);
    r = run(mn, 1, table, 6, FS_SUM_PY311, values, types);
    CHECK(r.status == FS_OK && r.value == 208.0);
    r = run(sm, 1, table, 6, FS_SUM_PY312, values, types);
    CHECK(r.status == FS_OK && r.value == 31927.0);
    r = run(gt, 1, 0, 0, FS_SUM_PY311, values, types);
    CHECK(r.status == FS_OK && r.value_type == FS_TYPE_BOOL && r.value == 1.0);
}

static void test_rounding(void) {
    /* the six double-rounding traps of the FinQA specification, at scale 1e5 */
    const double x[] = {3.268485, 1.276875, -0.771875, 0.115625, 0.128525, 0.178125};
    const double want[] = {3.26849, 1.27687, -0.77187, 0.11563, 0.12853, 0.17813};
    double out;
    int i;
    for (i = 0; i < 6; i++) {
        CHECK(fs_round_half_even_scaled(x[i], 1e5, &out) == FS_OK && out == want[i]);
    }
    CHECK(fs_round_half_even_scaled(0.125, 100, &out) == FS_OK && out == 0.12);
    CHECK(fs_round_half_even_scaled(-0.125, 100, &out) == FS_OK && out == -0.12);
    CHECK(fs_round_half_even_scaled(1.5, 1, &out) == FS_OK && out == 2.0);
    CHECK(fs_round_half_even_scaled(2.5, 1, &out) == FS_OK && out == 2.0);
    CHECK(fs_round_half_even_scaled(2.675, 100, &out) == FS_OK && out == 2.67);
    CHECK(fs_round_half_even_scaled(0.0, 1e5, &out) == FS_OK && same_bits(out, 0.0));
    CHECK(fs_round_half_even_scaled(-0.0, 1e5, &out) == FS_OK && same_bits(out, -0.0));
    CHECK(fs_round_half_even_scaled(-1e-9, 1e5, &out) == FS_OK && same_bits(out, -0.0));
    CHECK(fs_round_half_even_scaled(INFINITY, 1e5, &out) == FS_OK && out == INFINITY);
    CHECK(fs_round_half_even_scaled(NAN, 1e5, &out) == FS_OK && isnan(out));
    CHECK(fs_round_half_even_scaled(1e300, 1e22, &out) == FS_OK && out == 1e300);
    CHECK(fs_round_half_even_scaled(5e-324, 1e22, &out) == FS_OK && same_bits(out, 0.0));
    CHECK(fs_round_half_even_scaled(1.0, 1e23, &out) == FS_ERR_BAD_SCALE);
    CHECK(fs_round_half_even_scaled(1.0, 3.0, &out) == FS_ERR_BAD_SCALE);
    CHECK(fs_round_half_even_scaled(1.0, 1e5, 0) == FS_ERR_NULL_BUFFER);
}

static void test_pow_rules(void) {
    double out;
    CHECK(fs_python_pow(NAN, 0.0, &out) == FS_OK && out == 1.0);
    CHECK(fs_python_pow(1.0, NAN, &out) == FS_OK && out == 1.0);
    CHECK(fs_python_pow(2.0, NAN, &out) == FS_OK && isnan(out));
    CHECK(fs_python_pow(-1.0, INFINITY, &out) == FS_OK && out == 1.0);
    CHECK(fs_python_pow(0.5, -INFINITY, &out) == FS_OK && out == INFINITY);
    CHECK(fs_python_pow(-INFINITY, 3.0, &out) == FS_OK && out == -INFINITY);
    CHECK(fs_python_pow(-INFINITY, -3.0, &out) == FS_OK && same_bits(out, -0.0));
    CHECK(fs_python_pow(-0.0, 3.0, &out) == FS_OK && same_bits(out, -0.0));
    CHECK(fs_python_pow(-0.0, 2.0, &out) == FS_OK && same_bits(out, 0.0));
    CHECK(fs_python_pow(0.0, -1.0, &out) == FS_ERR_ZERO_TO_NEGATIVE_POWER);
    CHECK(fs_python_pow(-8.0, 1.0 / 3.0, &out) == FS_ERR_NEGATIVE_BASE_FRACTIONAL_EXPONENT);
    CHECK(fs_python_pow(-1e300, 1.5, &out) == FS_ERR_EXP_COMPLEX_OVERFLOW);
    CHECK(fs_python_pow(-2.0, 3.0, &out) == FS_OK && out == -8.0);
    CHECK(fs_python_pow(-1.0, 1e300, &out) == FS_OK && out == 1.0);
    CHECK(fs_python_pow(10.0, 400.0, &out) == FS_ERR_EXP_OVERFLOW);
    CHECK(fs_python_pow(10.0, -400.0, &out) == FS_OK && same_bits(out, 0.0));
    /* 9**17 = 16677181699666569 needs 54 bits: the correctly rounded double is ...68 */
    CHECK(fs_python_pow(9.0, 17.0, &out) == FS_OK && out == 16677181699666568.0);
}

static void test_sum_rules(void) {
    double out;
    const double cancel[] = {1e16, 1.0, -1e16};
    const double neg_zero[] = {-0.0};
    CHECK(fs_python_sum(cancel, 3, FS_SUM_PY311, &out) == FS_OK && out == 0.0);
    CHECK(fs_python_sum(cancel, 3, FS_SUM_PY312, &out) == FS_OK && out == 1.0);
    CHECK(fs_python_sum(neg_zero, 1, FS_SUM_PY311, &out) == FS_OK && same_bits(out, 0.0));
    CHECK(fs_python_sum(neg_zero, 1, FS_SUM_PY312, &out) == FS_OK && same_bits(out, 0.0));
    CHECK(fs_python_sum(cancel, 0, FS_SUM_PY311, &out) == FS_ERR_EMPTY_ROW);
    CHECK(fs_python_sum(cancel, -1, FS_SUM_PY311, &out) == FS_ERR_NEGATIVE_LENGTH);
    CHECK(fs_python_sum(cancel, 3, 7, &out) == FS_ERR_UNKNOWN_SUM_RULE);
    CHECK(fs_python_sum(0, 3, FS_SUM_PY311, &out) == FS_ERR_NULL_BUFFER);
}

static void expect_refusal(const fs_step *steps, int32_t n, const double *table, int32_t table_len,
                           int32_t status, int32_t failed_step, int line) {
    double values[8];
    int32_t types[8];
    fs_result r = run(steps, n, table, table_len, FS_SUM_PY311, values, types);
    if (r.status != status || r.has_value || r.failed_step != failed_step || r.value != 0.0 ||
        r.value_type != FS_TYPE_NONE) {
        fprintf(stderr, "line %d: expected status %d (%s) at step %d, got %d (%s) at %d\n", line,
                status, fs_status_name(status), failed_step, r.status, fs_status_name(r.status),
                r.failed_step);
        failures++;
    }
    if (failed_step >= 0 && types[failed_step] != FS_TYPE_NONE) {
        fprintf(stderr, "line %d: the refused step has a type\n", line);
        failures++;
    }
}
#define REFUSED(steps, table, table_len, status, at) \
    expect_refusal(steps, (int32_t)(sizeof steps / sizeof steps[0]), table, table_len, status, at, __LINE__)

static void test_refusals(void) {
    double table[] = {1.0, 2.0};
    fs_step unknown_op[] = {step(10, lit(1), lit(2))};
    fs_step negative_op[] = {step(-1, lit(1), lit(2))};
    fs_step row_in_add[] = {step(FS_OP_ADD, row(0, 2), lit(2))};
    fs_step literal_in_table[] = {step(FS_OP_TABLE_SUM, lit(1), lit(2))};
    fs_step bad_kind[] = {step(FS_OP_ADD, lit(1), lit(2))};
    fs_step forward[] = {step(FS_OP_ADD, ref(1), lit(1)), step(FS_OP_ADD, lit(1), lit(1))};
    fs_step self[] = {step(FS_OP_ADD, lit(1), lit(1)), step(FS_OP_ADD, ref(1), lit(1))};
    fs_step negative_ref[] = {step(FS_OP_ADD, lit(1), lit(1)), step(FS_OP_ADD, ref(-1), lit(1))};
    fs_step past_ref[] = {step(FS_OP_ADD, lit(1), ref(5))};
    fs_step to_bool[] = {step(FS_OP_GREATER, lit(1), lit(2)), step(FS_OP_ADD, ref(0), lit(1))};
    fs_step slice_past[] = {step(FS_OP_TABLE_MAX, row(1, 2), lit(0))};
    fs_step slice_negative[] = {step(FS_OP_TABLE_MAX, row(-1, 1), lit(0))};
    fs_step slice_negative_len[] = {step(FS_OP_TABLE_MAX, row(0, -1), lit(0))};
    fs_step slice_overflow[] = {step(FS_OP_TABLE_MAX, row(2147483647, 2147483647), lit(0))};
    fs_step empty[] = {step(FS_OP_TABLE_AVERAGE, row(2, 0), lit(0))};
    fs_step div_zero[] = {step(FS_OP_DIVIDE, lit(1), lit(-0.0))};
    fs_step nan_div_zero[] = {step(FS_OP_DIVIDE, lit(NAN), lit(0.0))};
    fs_step zero_neg[] = {step(FS_OP_EXP, lit(0.0), lit(-2))};
    fs_step neg_frac[] = {step(FS_OP_EXP, lit(-2.0), lit(0.5))};
    fs_step overflow[] = {step(FS_OP_EXP, lit(1e300), lit(2))};
    fs_step complex_overflow[] = {step(FS_OP_EXP, lit(-1e300), lit(2.5))};
    bad_kind[0].args[1].kind = 7;

    REFUSED(unknown_op, 0, 0, FS_ERR_UNKNOWN_OP, 0);
    REFUSED(negative_op, 0, 0, FS_ERR_UNKNOWN_OP, 0);
    REFUSED(row_in_add, table, 2, FS_ERR_BAD_ARGUMENT_KIND, 0);
    REFUSED(literal_in_table, table, 2, FS_ERR_BAD_ARGUMENT_KIND, 0);
    REFUSED(bad_kind, 0, 0, FS_ERR_BAD_ARGUMENT_KIND, 0);
    REFUSED(forward, 0, 0, FS_ERR_FORWARD_REFERENCE, 0);
    REFUSED(self, 0, 0, FS_ERR_SELF_REFERENCE, 1);
    REFUSED(negative_ref, 0, 0, FS_ERR_REFERENCE_OUT_OF_RANGE, 1);
    REFUSED(past_ref, 0, 0, FS_ERR_REFERENCE_OUT_OF_RANGE, 0);
    REFUSED(to_bool, 0, 0, FS_ERR_REFERENCE_TO_BOOLEAN, 1);
    REFUSED(slice_past, table, 2, FS_ERR_TABLE_SLICE_OUT_OF_BOUNDS, 0);
    REFUSED(slice_negative, table, 2, FS_ERR_TABLE_SLICE_OUT_OF_BOUNDS, 0);
    REFUSED(slice_negative_len, table, 2, FS_ERR_TABLE_SLICE_OUT_OF_BOUNDS, 0);
    REFUSED(slice_overflow, table, 2, FS_ERR_TABLE_SLICE_OUT_OF_BOUNDS, 0);
    REFUSED(empty, table, 2, FS_ERR_EMPTY_ROW, 0);
    REFUSED(div_zero, 0, 0, FS_ERR_DIVIDE_BY_ZERO, 0);
    REFUSED(nan_div_zero, 0, 0, FS_ERR_DIVIDE_BY_ZERO, 0);
    REFUSED(zero_neg, 0, 0, FS_ERR_ZERO_TO_NEGATIVE_POWER, 0);
    REFUSED(neg_frac, 0, 0, FS_ERR_NEGATIVE_BASE_FRACTIONAL_EXPONENT, 0);
    REFUSED(overflow, 0, 0, FS_ERR_EXP_OVERFLOW, 0);
    REFUSED(complex_overflow, 0, 0, FS_ERR_EXP_COMPLEX_OVERFLOW, 0);
}

static void test_buffer_checks(void) {
    fs_step steps[2] = {step(FS_OP_ADD, lit(1), lit(2)), step(FS_OP_ADD, ref(0), lit(2))};
    double values[2];
    int32_t types[2];
    fs_result r;
    fs_program programs[4] = {{0, 2}, {1, 5}, {0, 0}, {0, -1}};
    fs_result results[4];

    /* a declared step count larger than each buffer, in turn */
    CHECK(fs_execute(steps, 1, 2, 0, 0, 0, values, 2, types, 2, &r) == FS_ERR_BUFFER_TOO_SHORT);
    CHECK(!r.has_value);
    CHECK(fs_execute(steps, 2, 2, 0, 0, 0, values, 1, types, 2, &r) == FS_ERR_BUFFER_TOO_SHORT);
    CHECK(fs_execute(steps, 2, 2, 0, 0, 0, values, 2, types, 1, &r) == FS_ERR_BUFFER_TOO_SHORT);
    CHECK(fs_execute(steps, 2, 0, 0, 0, 0, values, 2, types, 2, &r) == FS_ERR_NO_STEPS);
    CHECK(fs_execute(steps, 2, -1, 0, 0, 0, values, 2, types, 2, &r) == FS_ERR_NEGATIVE_LENGTH);
    CHECK(r.status == FS_ERR_NEGATIVE_LENGTH && r.failed_step == -1 && !r.has_value);
    CHECK(fs_execute(steps, 2, 2, 0, -1, 0, values, 2, types, 2, &r) == FS_ERR_NEGATIVE_LENGTH);
    CHECK(fs_execute(steps, 2, 2, 0, 0, 0, values, 2, 0, 2, &r) == FS_ERR_NULL_BUFFER); /* NULL step_types */
    CHECK(fs_execute(steps, 2, 2, 0, 0, 0, values, 2, types, 2, &r) == FS_OK); /* NULL table, length 0 */
    CHECK(fs_execute(0, 2, 2, 0, 0, 0, values, 2, types, 2, &r) == FS_ERR_NULL_BUFFER);
    CHECK(fs_execute(steps, 2, 2, 0, 3, 0, values, 2, types, 2, &r) == FS_ERR_NULL_BUFFER);
    CHECK(fs_execute(steps, 2, 2, 0, 0, 9, values, 2, types, 2, &r) == FS_ERR_UNKNOWN_SUM_RULE);
    CHECK(r.steps_executed == 0); /* refused up front, though the program sums nothing */
    CHECK(fs_execute(steps, 2, 2, 0, 0, 0, values, 2, types, 2, 0) == FS_ERR_NULL_BUFFER);

    /* batch: one good program, one past the steps buffer, one without steps */
    CHECK(fs_execute_batch(programs, 3, steps, 2, 0, 0, 0, values, 2, types, 2, results, 3) == FS_OK);
    CHECK(results[0].status == FS_OK && results[0].value == 5.0);
    CHECK(results[1].status == FS_ERR_BUFFER_TOO_SHORT && !results[1].has_value);
    CHECK(results[2].status == FS_ERR_NO_STEPS);
    CHECK(fs_execute_batch(programs, 4, steps, 2, 0, 0, 0, values, 2, types, 2, results, 4) == FS_OK);
    CHECK(results[3].status == FS_ERR_NEGATIVE_LENGTH && results[3].failed_step == -1);
    CHECK(fs_execute_batch(programs, 1, steps, 2, 0, 0, 7, values, 2, types, 2, results, 1) ==
          FS_ERR_UNKNOWN_SUM_RULE);
    CHECK(fs_execute_batch(programs, 1, steps, 2, 0, 3, 0, values, 2, types, 2, results, 1) ==
          FS_ERR_NULL_BUFFER);
    CHECK(fs_execute_batch(programs, 3, steps, 2, 0, 0, 0, values, 2, types, 2, results, 2) ==
          FS_ERR_BUFFER_TOO_SHORT);
    CHECK(fs_execute_batch(programs, 3, steps, 2, 0, 0, 0, values, 1, types, 2, results, 3) ==
          FS_ERR_BUFFER_TOO_SHORT);
    CHECK(fs_execute_batch(programs, -1, steps, 2, 0, 0, 0, values, 2, types, 2, results, 3) ==
          FS_ERR_NEGATIVE_LENGTH);
    CHECK(fs_execute_batch(0, 3, steps, 2, 0, 0, 0, values, 2, types, 2, results, 3) ==
          FS_ERR_NULL_BUFFER);
    CHECK(fs_execute_batch(programs, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) == FS_OK);
}

/* fs_read_execute_batch over text laid out as the host does (0x1E, 0x1F separators). */
#define US "\x1f"
#define RS "\x1e"
static int32_t read_batch(const char *text, int32_t count, const char *tables, const int32_t *spans,
                          int32_t table_count, const int32_t *program_tables, int32_t steps_len,
                          int32_t table_values_len, fs_result *results, int32_t *program_spans) {
    static fs_step steps[64];
    static double table_values[64], values[64];
    static int32_t types[64];
    return fs_read_execute_batch((const unsigned char *)text, (int32_t)strlen(text), count,
                                 (const unsigned char *)tables, tables ? (int32_t)strlen(tables) : 0,
                                 spans, table_count, program_tables, count, FS_SUM_PY311, steps,
                                 steps_len, table_values, table_values_len, values, steps_len,
                                 types, steps_len, program_spans, 2 * count, results, count);
}

static void test_plain_reader(void) {
    /* subtract(34.8, 1.2), divide(#0, 34.8), multiply(#1, const_100) | a loose literal |
     * table_average(revenue, none) | no EOF | 12% of 1,000 | divide by zero */
    const char *text =
        "subtract(" US "34.8" US "1.2" US ")" US "divide(" US "#0" US "34.8" US ")" US
        "multiply(" US "#1" US "const_100" US ")" US "EOF"
        RS "add(" US "1_000" US "2" US ")" US "EOF"
        RS "table_average(" US "revenue" US "none" US ")" US "EOF"
        RS "add(" US "1" US "2" US ")"
        RS "multiply(" US "12%" US "1,000" US ")" US "EOF"
        RS "divide(" US "1" US "0" US ")" US "EOF";
    const char *tables = US "2019" US "2018" RS "revenue" US "$ 13,053" US "18,874 ( a )";
    const int32_t spans[2] = {0, (int32_t)strlen(tables)};
    const int32_t program_tables[6] = {-1, -1, 0, -1, -1, -1};
    fs_result results[6];
    int32_t program_spans[12];

    CHECK(read_batch(text, 6, tables, spans, 1, program_tables, 64, 64, results, program_spans) == FS_OK);
    CHECK(results[0].status == FS_OK && results[0].value == 96.55172 && program_spans[1] == 3);
    CHECK(results[1].status == FS_DEFERRED && program_spans[3] == 0);
    CHECK(results[2].status == FS_OK && results[2].value == 15963.5);
    CHECK(results[3].status == FS_DEFERRED);
    CHECK(results[4].status == FS_OK && results[4].value == 120.0);
    CHECK(results[5].status == FS_ERR_DIVIDE_BY_ZERO && results[5].failed_step == 0);

    /* certain reading failures: the steps before run, the failure is the outcome */
    {
        const char *stops =
            "add(" US "1" US "2" US ")" US "divide(" US "#0" US "total" US ")" US "EOF"
            RS "table_sum(" US "profit" US "none" US ")" US "EOF"
            RS "divide(" US "1" US "0" US ")" US "add(" US "cash" US "1" US ")" US "EOF"
            RS "add(" US "cash" US "1" US ")" US "add(" US "1" US "a|b" US ")" US "EOF"
            RS "add(" US "in,f" US "1" US ")" US "EOF";
        const int32_t stop_tables[5] = {-1, 0, -1, -1, -1};
        fs_result r[5];
        int32_t s[10];
        CHECK(read_batch(stops, 5, tables, spans, 1, stop_tables, 64, 64, r, s) == FS_OK);
        CHECK(r[0].status == FS_READ_BAD_NUMBER && r[0].failed_step == 1 && r[0].steps_executed == 1 &&
              r[0].has_value == 0 && s[1] == 1);
        CHECK(r[1].status == FS_READ_UNKNOWN_ROW && r[1].failed_step == 0 && s[3] == 0);
        CHECK(r[2].status == FS_ERR_DIVIDE_BY_ZERO && r[2].failed_step == 0); /* an earlier refusal wins */
        CHECK(r[3].status == FS_DEFERRED); /* a delimiter later on: the host's reader decides */
        CHECK(r[4].status == FS_DEFERRED); /* "in,f" is float("inf") once commas are removed */
    }

    /* "const" is looked for once commas are removed, as the official reader does: the host
     * reads these (co,nst_5 is const_5); text without "const" is still certainly refused */
    {
        const char *consts =
            "add(" US "1" US "co,nst_5" US ")" US "EOF"
            RS "add(" US "c,o,n,s,t,_,m,1" US "1" US ")" US "EOF"
            RS "add(" US "1" US "cco,nst_5" US ")" US "EOF"
            RS "add(" US "1" US ",,const_,5" US ")" US "EOF"
            RS "add(" US "1" US "co,nxt_5" US ")" US "EOF"
            RS "add(" US "1" US "cons_5" US ")" US "EOF";
        const int32_t none[6] = {-1, -1, -1, -1, -1, -1};
        fs_result r[6];
        int32_t s[12];
        int k;
        CHECK(read_batch(consts, 6, 0, 0, 0, none, 64, 64, r, s) == FS_OK);
        for (k = 0; k < 4; k++) CHECK(r[k].status == FS_DEFERRED);
        CHECK(r[4].status == FS_READ_BAD_NUMBER && r[4].failed_step == 0);
        CHECK(r[5].status == FS_READ_BAD_NUMBER && r[5].failed_step == 0);
        CHECK(strcmp(fs_status_name(FS_READ_BAD_NUMBER), "bad_number") == 0 &&
              strcmp(fs_status_name(FS_READ_UNKNOWN_ROW), "unknown_row") == 0);
    }

    /* references to no earlier step, and the official position check */
    {
        const char *stops =
            "add(" US "1" US "2" US ")" US "add(" US "#1" US "1" US ")" US "EOF"                /* itself */
            RS "add(" US "#1" US "2" US ")" US "add(" US "3" US "4" US ")" US "EOF"            /* a later step */
            RS "add(" US "1" US "2" US ")" US "add(" US "1" US "#6" US ")" US "EOF"            /* no such step */
            RS "divide(" US "1" US "0" US ")" US "add(" US "#5" US "1" US ")" US "EOF"         /* refused first */
            RS "add(" US "#1" US "2" US ")" US "add(" US "a|b" US "4" US ")" US "EOF"          /* a delimiter later */
            RS "The answer is 14.1%." US "EOF"                                                /* free text */
            RS "((add" US "1" US "2" US ")" US "Add(" US "1" US "2" US ")" US "EOF"           /* strip("(") only */
            RS "The answer is 14.1%." US "done"                                               /* no EOF: host's */
            RS "((add" US "1" US "2" US ")" US "EOF";                                         /* passes the check */
        const int32_t stop_tables[9] = {-1, -1, -1, -1, -1, -1, -1, -1, -1};
        fs_result r[9];
        int32_t s[18];
        CHECK(read_batch(stops, 9, tables, spans, 1, stop_tables, 64, 64, r, s) == FS_OK);
        CHECK(r[0].status == FS_ERR_SELF_REFERENCE && r[0].failed_step == 1 && r[0].steps_executed == 1 && s[1] == 1);
        CHECK(r[1].status == FS_ERR_FORWARD_REFERENCE && r[1].failed_step == 0 && r[1].steps_executed == 0);
        CHECK(r[2].status == FS_ERR_REFERENCE_OUT_OF_RANGE && r[2].failed_step == 1 && r[2].steps_executed == 1);
        CHECK(r[3].status == FS_ERR_DIVIDE_BY_ZERO && r[3].failed_step == 0);
        CHECK(r[4].status == FS_DEFERRED);
        CHECK(r[5].status == FS_READ_MALFORMED_STRUCTURE && r[5].failed_step == -1 && r[5].steps_executed == 0 &&
              r[5].value_type == FS_TYPE_NONE && s[11] == 0);
        CHECK(r[6].status == FS_READ_MALFORMED_STRUCTURE && r[6].failed_step == -1);
        CHECK(r[7].status == FS_DEFERRED);
        CHECK(r[8].status == FS_DEFERRED);
        CHECK(strcmp(fs_status_name(FS_READ_MALFORMED_STRUCTURE), "malformed_structure") == 0);
    }

    /* too little room for steps or table cells: the call is refused, nothing is written. The
     * text's programs hold 13 + 5 + 5 + 4 + 5 + 5 = 37 tokens: floor(37 / 4) = 9 steps at most;
     * program 2's table holds 4 value cells (its 0x1F bytes). */
    memset(results, 0x55, sizeof results);
    CHECK(read_batch(text, 6, tables, spans, 1, program_tables, 8, 64, results, program_spans) ==
          FS_ERR_BUFFER_TOO_SHORT);
    CHECK(read_batch(text, 6, tables, spans, 1, program_tables, 9, 3, results, program_spans) ==
          FS_ERR_BUFFER_TOO_SHORT);
    CHECK(results[0].status == 0x55555555 && results[5].status == 0x55555555);
    CHECK(read_batch(text, 6, tables, spans, 1, program_tables, 9, 4, results, program_spans) == FS_OK);
    CHECK(results[2].status == FS_OK && results[2].value == 15963.5);

    /* the framing is checked whole before anything runs: nothing is written when it is refused */
    {
        const int32_t none[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
        const char *one = "add(" US "1" US "2" US ")" US "EOF";
        fs_result more[8];
        int32_t more_spans[16];
        memset(more, 0x55, sizeof more);
        CHECK(read_batch(text, 5, tables, spans, 1, program_tables, 64, 64, more, more_spans) ==
              FS_ERR_PROGRAM_COUNT_MISMATCH);
        CHECK(read_batch(text, 7, tables, spans, 1, none, 64, 64, more, more_spans) ==
              FS_ERR_PROGRAM_COUNT_MISMATCH);
        CHECK(read_batch("", 1, 0, 0, 0, none, 64, 64, more, more_spans) == FS_ERR_EMPTY_PROGRAM);
        CHECK(read_batch(RS, 2, 0, 0, 0, none, 64, 64, more, more_spans) == FS_ERR_EMPTY_PROGRAM);
        CHECK(read_batch("add(" US "1" US "2" US ")" US "EOF" RS, 1, 0, 0, 0, none, 64, 64, more,
                         more_spans) == FS_ERR_EMPTY_PROGRAM); /* a terminator, not a separator */
        CHECK(read_batch("add(" US "1" US "2" US ")" US "EOF" RS RS "x", 3, 0, 0, 0, none, 64, 64, more,
                         more_spans) == FS_ERR_EMPTY_PROGRAM);
        CHECK(read_batch("add(" US "1" US "2" US ")" US "EOF" US, 1, 0, 0, 0, none, 64, 64, more,
                         more_spans) == FS_ERR_TRAILING_TOKEN_SEPARATOR);
        CHECK(read_batch("add(" US "1" US "2" US ")" US "EOF" US RS "x", 2, 0, 0, 0, none, 64, 64, more,
                         more_spans) == FS_ERR_TRAILING_TOKEN_SEPARATOR);
        /* the first fault in the text names the call's status, whether its bytes are taken one by one
         * (short or non-ASCII) or eight at a time */
        CHECK(read_batch("a" US RS RS, 3, 0, 0, 0, none, 64, 64, more, more_spans) == FS_ERR_TRAILING_TOKEN_SEPARATOR);
        CHECK(read_batch("a" US RS RS "bcde", 3, 0, 0, 0, none, 64, 64, more, more_spans) ==
              FS_ERR_TRAILING_TOKEN_SEPARATOR);
        CHECK(read_batch("a" US RS RS "bcd\xc3\xa9", 3, 0, 0, 0, none, 64, 64, more, more_spans) ==
              FS_ERR_TRAILING_TOKEN_SEPARATOR);
        CHECK(read_batch("a" RS RS US RS "bcd", 4, 0, 0, 0, none, 64, 64, more, more_spans) == FS_ERR_EMPTY_PROGRAM);
        CHECK(read_batch("a" RS RS US RS "bc\xc3\xa9", 4, 0, 0, 0, none, 64, 64, more, more_spans) ==
              FS_ERR_EMPTY_PROGRAM);
        CHECK(read_batch("add(" US "\xff" US "2" US ")" US "EOF", 1, 0, 0, 0, none, 64, 64, more,
                         more_spans) == FS_ERR_BAD_UTF8);
        CHECK(read_batch("add(" US "\xc3" US "2" US ")" US "EOF", 1, 0, 0, 0, none, 64, 64, more,
                         more_spans) == FS_ERR_BAD_UTF8); /* a sequence cut short */
        CHECK(read_batch("add(" US "\xc0\x80" US "2" US ")" US "EOF", 1, 0, 0, 0, none, 64, 64, more,
                         more_spans) == FS_ERR_BAD_UTF8); /* an overlong form */
        CHECK(more[0].status == 0x55555555); /* none of the refused calls wrote a result */
        {
            const int32_t seven[1] = {1}, minus_two[1] = {-2};
            const char *rows_ok = "a" US "1" RS "b" US "2";
            const int32_t ok_spans[2] = {0, 7};
            CHECK(read_batch(one, 1, rows_ok, ok_spans, 1, seven, 64, 64, more, more_spans) ==
                  FS_ERR_BAD_TABLE_INDEX);
            CHECK(read_batch(one, 1, rows_ok, ok_spans, 1, minus_two, 64, 64, more, more_spans) ==
                  FS_ERR_BAD_TABLE_INDEX);
        }
        {
            const int32_t first[1] = {0};
            const char *bad_rows[4] = {RS "a" US "1", "a" US "1" RS, "a" US "1" RS RS "b" US "2", ""};
            int k;
            for (k = 0; k < 4; k++) {
                const int32_t row_spans[2] = {0, (int32_t)strlen(bad_rows[k])};
                CHECK(read_batch(one, 1, bad_rows[k], row_spans, 1, first, 64, 64, more, more_spans) ==
                      FS_ERR_EMPTY_TABLE_ROW);
            }
            CHECK(more[0].status == 0x55555555);
        }
        /* a surrogate written as Python's surrogatepass writes it is UTF-8 enough: deferred */
        CHECK(read_batch("add(" US "\xed\xa0\x80" US "2" US ")" US "EOF", 1, 0, 0, 0, none, 64, 64, more,
                         more_spans) == FS_OK && more[0].status == FS_DEFERRED);
        /* an empty token inside a program is data: not plain, so deferred */
        CHECK(read_batch("add(" US US "2" US ")" US "EOF", 1, 0, 0, 0, none, 64, 64, more, more_spans) ==
                  FS_OK && more[0].status == FS_DEFERRED);
    }
    {
        const int32_t bad_spans[2] = {5, 1000};
        CHECK(read_batch(text, 6, tables, bad_spans, 1, program_tables, 64, 64, results, program_spans) ==
              FS_ERR_TABLE_SLICE_OUT_OF_BOUNDS);
    }
    CHECK(fs_read_execute_batch(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) == FS_OK);
    CHECK(fs_read_execute_batch((const unsigned char *)"x", 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                0, 0, 0, 0, 0, 0) == FS_ERR_NULL_BUFFER);
}

/* Rows are written at their own place in each program's slot of table values: a table of
 * rows a (2 cells), b (1 cell), c (3 cells) puts c at cells 3..5 of the slot; a second
 * program using the same table has its own slot after the first. */
static void test_row_placement(void) {
    const char *text = "table_sum(" US "c" US "none" US ")" US "EOF" RS
                       "table_max(" US "a" US "none" US ")" US "EOF";
    const char *tables = "a" US "1" US "2" RS "b" US "3" RS "c" US "4" US "5" US "6";
    const int32_t spans[2] = {0, (int32_t)strlen(tables)}, program_tables[2] = {0, 0};
    fs_step steps[2];
    double cells[12], values[2];
    int32_t types[2], program_spans[4], k;
    fs_result results[2];
    for (k = 0; k < 12; k++) cells[k] = -1.0;
    CHECK(fs_read_execute_batch((const unsigned char *)text, (int32_t)strlen(text), 2,
                                (const unsigned char *)tables, spans[1], spans, 1, program_tables, 2,
                                FS_SUM_PY311, steps, 2, cells, 12, values, 2, types, 2, program_spans, 4,
                                results, 2) == FS_OK);
    CHECK(results[0].status == FS_OK && results[0].value == 15.0);
    CHECK(results[1].status == FS_OK && results[1].value == 2.0);
    CHECK(steps[0].args[0].index == 3 && steps[0].args[0].length == 3);
    CHECK(steps[1].args[0].index == 6 && steps[1].args[0].length == 2);
    CHECK(cells[3] == 4.0 && cells[5] == 6.0 && cells[6] == 1.0 && cells[7] == 2.0 && cells[0] == -1.0);
    /* 11 doubles are one short of the two slots (6 value cells each) */
    CHECK(fs_read_execute_batch((const unsigned char *)text, (int32_t)strlen(text), 2,
                                (const unsigned char *)tables, spans[1], spans, 1, program_tables, 2,
                                FS_SUM_PY311, steps, 2, cells, 11, values, 2, types, 2, program_spans, 4,
                                results, 2) == FS_ERR_BUFFER_TOO_SHORT);
}

/* The contract's loose ends: reserved fields ignored, a table op whose first argument is
 * a reference refused, fs_free refusing what fs_alloc did not return. */
static void test_contract_edges(void) {
    fs_step steps[2] = {step(FS_OP_ADD, lit(1), lit(2)), step(FS_OP_TABLE_SUM, ref(0), lit(0))};
    double values[2], table[1] = {1.0};
    int32_t types[2];
    fs_result r;
    unsigned char *block;
    steps[0].reserved = 77;
    steps[0].args[0].reserved = -5;
    steps[0].args[1].length = 99; /* a literal's length means nothing */
    CHECK(fs_execute(steps, 2, 1, 0, 0, 0, values, 2, types, 2, &r) == FS_OK && r.value == 3.0);
    CHECK(fs_execute(steps, 2, 2, table, 1, 0, values, 2, types, 2, &r) == FS_ERR_BAD_ARGUMENT_KIND);
    CHECK(r.failed_step == 1 && r.steps_executed == 1);

    CHECK(fs_alloc(0) == 0 && fs_alloc(-8) == 0);
    block = fs_alloc(24);
    CHECK(block != 0 && (uintptr_t)block % 8 == 0);
    CHECK(fs_free(block + 8) == FS_ERR_NOT_ALLOCATED); /* inside a block, not its start */
    CHECK(fs_free(block) == FS_OK);
    CHECK(fs_free(0) == FS_OK);
}

static void test_packed_calls(void) {
    fs_step steps[2] = {step(FS_OP_ADD, lit(1), lit(2)), step(FS_OP_MULTIPLY, ref(0), lit(2))};
    fs_program programs[1] = {{0, 2}};
    double values[2];
    int32_t types[2];
    fs_result results[1];
    int64_t a[13];
    a[0] = (int64_t)(uintptr_t)programs; a[1] = 1; a[2] = (int64_t)(uintptr_t)steps; a[3] = 2;
    a[4] = 0; a[5] = 0; a[6] = FS_SUM_PY311; a[7] = (int64_t)(uintptr_t)values; a[8] = 2;
    a[9] = (int64_t)(uintptr_t)types; a[10] = 2; a[11] = (int64_t)(uintptr_t)results; a[12] = 1;
    CHECK(fs_execute_batch_packed(a, 13) == FS_OK && results[0].status == FS_OK && results[0].value == 6.0);
    CHECK(fs_execute_batch_packed(a, 12) == FS_ERR_BUFFER_TOO_SHORT);
    CHECK(fs_execute_batch_packed(0, 13) == FS_ERR_NULL_BUFFER);
    CHECK(fs_execute_batch_packed(a, -13) == FS_ERR_NEGATIVE_LENGTH);
    a[3] = (int64_t)INT32_MAX + 1; /* a length beyond int32 */
    CHECK(fs_execute_batch_packed(a, 13) == FS_ERR_NULL_BUFFER);
    a[3] = 2;
    a[2] = -8; /* a negative pointer */
    CHECK(fs_execute_batch_packed(a, 13) == FS_ERR_NULL_BUFFER);
    {
        int64_t r[22] = {0};
        CHECK(fs_read_execute_batch_packed(r, 22) == FS_OK); /* no programs: nothing to do */
        CHECK(fs_read_execute_batch_packed(r, 21) == FS_ERR_BUFFER_TOO_SHORT);
        r[1] = -1; /* text_len */
        CHECK(fs_read_execute_batch_packed(r, 22) == FS_ERR_NEGATIVE_LENGTH);
        r[1] = (int64_t)1 << 40; /* does not fit an int32 */
        CHECK(fs_read_execute_batch_packed(r, 22) == FS_ERR_NULL_BUFFER);
    }
}

static void test_status_names(void) {
    int32_t s;
    CHECK(strcmp(fs_status_name(FS_OK), "ok") == 0);
    CHECK(strcmp(fs_status_name(FS_ERR_DIVIDE_BY_ZERO), "divide_by_zero") == 0);
    CHECK(strcmp(fs_status_name(1399), "unknown_status") == 0);
    CHECK(strcmp(fs_status_name(1420), "malformed_structure") == 0); /* the reader's statuses too */
    CHECK(strcmp(fs_status_name(1447), "trailing_tokens") == 0);
    CHECK(strcmp(fs_status_name(1434), "unknown_status") == 0);
    CHECK(strcmp(fs_status_name(1433), "exceeds_bounds") == 0);
    CHECK(strcmp(fs_status_name(FS_ERR_PROGRAM_COUNT_MISMATCH), "program_count_mismatch") == 0);
    for (s = 1300; s <= 1500; s++) CHECK(strlen(fs_status_name(s)) < 64);
    CHECK(fs_sizeof_step() == 56 && fs_sizeof_program() == 8 && fs_sizeof_result() == 40);
    CHECK(fs_abi_version() == FS_ABI_VERSION);
}

/* fs_decide_answers: decisions worked out by hand from the finqa-answer/1 rules (the README's "Free-text answers"),
 * every buffer exactly as long as declared (ASan sees any read or write past it), and hostile text
 * (no newline for 200 KB, deep digits, every byte value) decided or deferred without a fault. */
static const char ANSWER_RULES[] = "WP\x1er\x1e" "0.005\x1e" "10000\x1e" "100\x1e" "7\x1e$\x1e-\x1e"
                                   "per cent\x1fpercent\x1f%\x1e" "million\x1d" "6\x1fm\x1d" "6\x1e"
                                   "dollars\x1f" "dollar\x1fUSD";

static int32_t decide_with(const char *rules, int32_t format, const char *completion, const char *gold,
                           fs_answer_outcome *out, char *value) {
    int32_t length = (int32_t)strlen(completion), gold_length = (int32_t)strlen(gold);
    int32_t rows[3], spans[2];
    unsigned char values[FS_ANSWER_VALUE_BYTES];
    int32_t status;
    rows[0] = 0;
    rows[1] = length;
    rows[2] = gold_length ? 0 : -1;
    spans[0] = 0;
    spans[1] = gold_length;
    status = fs_decide_answers((const unsigned char *)rules, (int32_t)strlen(rules), format,
                               (const unsigned char *)completion, length, rows, 3, 1, (const unsigned char *)gold,
                               gold_length, spans, gold_length ? 1 : 0, out, 1, values, FS_ANSWER_VALUE_BYTES);
    memset(value, 0, FS_ANSWER_VALUE_BYTES + 1);
    if (status == FS_OK && out->row == FS_ANSWER_DECIDED) memcpy(value, values, (size_t)out->value_length);
    return status;
}

static int32_t decide_one(const char *completion, const char *gold, fs_answer_outcome *out, char *value) {
    return decide_with(ANSWER_RULES, FS_ANSWER_FORMAT_ANSWER_LINE, completion, gold, out, value);
}

/* Bare numbers read in the gold's scale (flag G), half-unit tolerance, the whole completion the answer. */
static const char SCALED_RULES[] = "G\x1eg\x1e\x1e" "100\x1e" "40\x1e" "3\x1e$\x1e-\x1e%\x1e\x1e";

/* The gold's scale is at most six digits, like a scale word's power: a larger one (a host can send
 * any text) is not read, and the row is the host's, where it once overflowed the exponent sums and
 * wrote far past the value slot (0E-1 with scale -2147483647 and the answer 0.5). */
static void test_answer_gold_scales(void) {
    fs_answer_outcome out;
    char value[FS_ANSWER_VALUE_BYTES + 1];
    CHECK(decide_with(SCALED_RULES, FS_ANSWER_FORMAT_WHOLE, "5", "5000\x1f" "0.5\x1f\x1f" "3", &out, value) == FS_OK);
    CHECK(out.row == FS_ANSWER_DECIDED && out.reason == FS_ANSWER_EXACT && !strcmp(value, "5000"));
    /* six digits are read: 0 in that scale is still 0, a value short enough to show; seven are not */
    CHECK(decide_with(SCALED_RULES, FS_ANSWER_FORMAT_WHOLE, "0", "5E+999999\x1f" "5E+999998\x1f\x1f" "999999", &out,
                      value) == FS_OK);
    CHECK(out.row == FS_ANSWER_DECIDED && out.reason == FS_ANSWER_WRONG_VALUE && !strcmp(value, "0"));
    {
        /* the value read, but too long to show (0E-999999 is 0.000..., a million places); seven digits,
         * not read; and the three scales that once overflowed: each row is the host's */
        static const char *const deferred[][2] = {
            {"0", "5E+999999\x1f" "5E+999998\x1f\x1f" "-999999"},
            {"0", "5E+999999\x1f" "5E+999998\x1f\x1f" "1000000"},
            {"0.5", "0E-1\x1f" "0E-5\x1f\x1f" "-2147483647"},
            {"5e5", "1\x1f" "0.5\x1f\x1f" "+2147483647"},
            {"50", "0.00001\x1f" "0.000005\x1f\x1f" "2147483647"},
        };
        size_t k;
        for (k = 0; k < sizeof deferred / sizeof deferred[0]; k++) {
            CHECK(decide_with(SCALED_RULES, FS_ANSWER_FORMAT_WHOLE, deferred[k][0], deferred[k][1], &out, value) == FS_OK);
            CHECK(out.row == FS_ANSWER_DEFERRED);
        }
    }
}

static void test_answers(void) {
    fs_answer_outcome out;
    char value[FS_ANSWER_VALUE_BYTES + 1];
    static char long_text[200001];
    const char *gold_94 = "94\x1f" "0.5\x1f\x1f" "0";
    int32_t i;
    CHECK(decide_one("Work.\nAnswer: $94.00 million", gold_94, &out, value) == FS_OK);
    CHECK(out.row == FS_ANSWER_DECIDED && out.reason == FS_ANSWER_EXACT && out.equal == 1 && !strcmp(value, "94.00"));
    CHECK(out.read_start == 14 && out.read_end == 28); /* "$94.00 million" */
    CHECK(decide_one("Answer: 94.4", gold_94, &out, value) == FS_OK); /* |0.4| <= 0.47 */
    CHECK(out.reason == FS_ANSWER_WITHIN_TOLERANCE && out.equal == 0 && !strcmp(value, "94.4"));
    CHECK(decide_one("Answer: (94)", gold_94, &out, value) == FS_OK);
    CHECK(out.reason == FS_ANSWER_SIGN_FLIPPED && !strcmp(value, "-94"));
    CHECK(decide_one("Answer: 94000", gold_94, &out, value) == FS_OK);
    CHECK(out.reason == FS_ANSWER_SCALE_OFF && out.has_k && out.k == 3);
    CHECK(decide_one("Answer: 90", gold_94, &out, value) == FS_OK);
    CHECK(out.reason == FS_ANSWER_WRONG_VALUE && !strcmp(value, "90"));
    CHECK(decide_one("Answer: 0.5", "0.46\x1f" "0.005\x1f\x1f" "0", &out, value) == FS_OK); /* 0.46 rounds to 0.5 */
    CHECK(out.reason == FS_ANSWER_ROUNDING && out.has_k && out.k == 1);
    CHECK(decide_one("Answer: 14.46%", "0.14464\x1f" "0.000005\x1f" "c\x1f" "0", &out, value) == FS_OK);
    CHECK(out.reason == FS_ANSWER_PERCENT_DECLARED && !strcmp(value, "0.1446"));
    CHECK(decide_one("Answer: 5 or 6", gold_94, &out, value) == FS_OK);
    CHECK(out.reason == FS_ANSWER_SEVERAL_NUMBERS && out.read_start == 8 && out.other_start == 13);
    CHECK(decide_one("no marker here", gold_94, &out, value) == FS_OK && out.reason == FS_ANSWER_NO_FINAL_ANSWER);
    CHECK(decide_one("Answer: yes", "", &out, value) == FS_OK && out.row == FS_ANSWER_DEFERRED); /* gold -1 */
    CHECK(decide_one("Answer: nan", gold_94, &out, value) == FS_OK && out.row == FS_ANSWER_DEFERRED);
    CHECK(decide_one("Answer: 1,2345", gold_94, &out, value) == FS_OK && out.row == FS_ANSWER_DEFERRED);
    CHECK(decide_one("Answer: 12345678901234567890", gold_94, &out, value) == FS_OK && out.row == FS_ANSWER_DEFERRED);
    CHECK(decide_one("Answer: 1e300", gold_94, &out, value) == FS_OK && out.row == FS_ANSWER_DEFERRED);
    { /* issue #32's readings are the host's (finscore.answers reads them; the differential tests
       * check both agree): a spaced sign, a lettered dollar, a spaced parenthesis, 1.e3 */
        static const char *const hosts[] = {"Answer: - 94", "Answer: - $94", "Answer: -US$94", "Answer: (HK$94)",
                                            "Answer: ( 94 )", "Answer: (94 )", "Answer: 9.4e1", "Answer: 94.e0",
                                            "Answer: 94.E-0", "Answer: 8 - 94"};
        size_t k;
        for (k = 0; k < sizeof hosts / sizeof hosts[0]; k++) {
            int expected_deferred = k != 6; /* 9.4e1 is read here */
            CHECK(decide_one(hosts[k], gold_94, &out, value) == FS_OK);
            CHECK((out.row == FS_ANSWER_DEFERRED) == expected_deferred);
        }
        CHECK(decide_one("Answer: -94", gold_94, &out, value) == FS_OK && out.row == FS_ANSWER_DECIDED);
        CHECK(out.reason == FS_ANSWER_SIGN_FLIPPED);
    }
    memset(long_text, '7', sizeof long_text - 1);
    memcpy(long_text, "Answer: ", 8);
    CHECK(decide_one(long_text, gold_94, &out, value) == FS_OK && out.row == FS_ANSWER_DEFERRED);
    for (i = 1; i < 256; i++) { /* every byte value after a marker: decided or deferred, never a fault */
        char text[16];
        memcpy(text, "Answer: 9", 9);
        text[9] = (char)i;
        text[10] = '4';
        text[11] = 0;
        CHECK(decide_one(text, gold_94, &out, value) == FS_OK);
    }
    {
        int32_t rows[3] = {0, 5, 0}, spans[2] = {0, 9};
        unsigned char values[FS_ANSWER_VALUE_BYTES];
        const unsigned char *rules = (const unsigned char *)ANSWER_RULES;
        int32_t rules_length = (int32_t)strlen(ANSWER_RULES);
        const unsigned char *gold = (const unsigned char *)gold_94;
        CHECK(fs_decide_answers(rules, rules_length, 7, (const unsigned char *)"x: 94", 5, rows, 3, 1, gold, 9, spans,
                                1, &out, 1, values, FS_ANSWER_VALUE_BYTES) == FS_ERR_BAD_ANSWER_FORMAT);
        CHECK(fs_decide_answers((const unsigned char *)"W", 1, 0, (const unsigned char *)"x: 94", 5, rows, 3, 1, gold,
                                9, spans, 1, &out, 1, values, FS_ANSWER_VALUE_BYTES) == FS_ERR_BAD_ANSWER_RULES);
        rows[1] = 6; /* past the text */
        CHECK(fs_decide_answers(rules, rules_length, 0, (const unsigned char *)"x: 94", 5, rows, 3, 1, gold, 9, spans,
                                1, &out, 1, values, FS_ANSWER_VALUE_BYTES) == FS_ERR_BAD_ANSWER_ROW);
        rows[1] = 5;
        CHECK(fs_decide_answers(rules, rules_length, 0, (const unsigned char *)"x: 94", 5, rows, 3, 1, gold, 9, spans,
                                1, &out, 1, values, FS_ANSWER_VALUE_BYTES - 1) == FS_ERR_BUFFER_TOO_SHORT);
        CHECK(fs_decide_answers(rules, rules_length, 0, (const unsigned char *)"x: 94", 5, rows, 2, 1, gold, 9, spans,
                                1, &out, 1, values, FS_ANSWER_VALUE_BYTES) == FS_ERR_BUFFER_TOO_SHORT);
        CHECK(fs_decide_answers(rules, rules_length, 0, (const unsigned char *)"x: 94", -1, rows, 3, 1, gold, 9, spans,
                                1, &out, 1, values, FS_ANSWER_VALUE_BYTES) == FS_ERR_NEGATIVE_LENGTH);
    }
}

/* fs_decide_peer_acc: the shapes it reads, what it leaves to the host, and its refusals. The
 * expected decisions are CPython's (the peers' comparisons on the values eval() gives). */
static void test_peer_acc(void) {
    static const unsigned char text[] = "$1,234\0None\0" "0.05\0The answer\0" "01\0" "12.5%\0" "The final answer is 5.";
    const double golds[7] = {1234.0, 1.0, 5.0, 1.0, 1.0, 12.5, 5.0};
    const unsigned char kinds[7] = {FS_PEER_GOLD_FLOAT, FS_PEER_GOLD_FLOAT, FS_PEER_GOLD_FLOAT, FS_PEER_GOLD_FLOAT,
                                    FS_PEER_GOLD_FLOAT, FS_PEER_GOLD_FLOAT, FS_PEER_GOLD_FLOAT};
    unsigned char outcomes[7];
    double ratios[7];
    int32_t length = (int32_t)sizeof text - 1;
    CHECK(fs_decide_peer_acc(FS_PEER_RULE_FINANCEMATH, text, length, 7, golds, 7, kinds, 7, outcomes, 7, ratios, 7) == FS_OK);
    CHECK(outcomes[0] == (FS_PEER_EXACT << 1 | 1));                 /* $1,234 -> 1234 */
    CHECK(outcomes[1] == (FS_PEER_NON_NUMERIC_VALUE << 1));         /* None */
    CHECK(outcomes[2] == (0x80 | 2 << 5 | FS_PEER_PERCENT_SCALE << 1 | 1) && ratios[2] == 100.0); /* 5 / 0.05 */
    CHECK(outcomes[3] == (FS_PEER_EVAL_FAILED_ZERO << 1));          /* two names: eval()'s SyntaxError, 0 */
    CHECK(outcomes[4] == 0);                                        /* 01: eval()'s SyntaxError, the host's */
    CHECK(outcomes[5] == (FS_PEER_EXACT << 1 | 1));                 /* 12.5% -> 12.5 */
    CHECK(outcomes[6] == (FS_PEER_EVAL_FAILED_ZERO << 1));          /* a sentence reads 0 */
    /* FinanceReasoning: 1,234 is the tuple (1, 234), scored by 1; 5% fails raw and reads 5 */
    {
        static const unsigned char tuple[] = "1,234\0" "5%";
        const double two[2] = {1.0, 5.0};
        const unsigned char number[2] = {FS_PEER_GOLD_NUMBER, FS_PEER_GOLD_NUMBER};
        CHECK(fs_decide_peer_acc(FS_PEER_RULE_FINANCEREASONING, tuple, (int32_t)sizeof tuple - 1, 2, two, 2, number, 2,
                                 outcomes, 2, ratios, 2) == FS_OK);
        CHECK(outcomes[0] == (FS_PEER_TUPLE_FIRST_ELEMENT << 1 | 1) && outcomes[1] == (FS_PEER_EXACT << 1 | 1));
    }
    /* FinanceMath's whole cleaning (UTF-8 currency signs, unit words) and arithmetic of literals: the values
     * CPython gives the cleaned texts (1/3 is 0.3333333333333333, 0.1 + 0.2 is 0.30000000000000004) */
    {
        static const unsigned char cleaned[] = "\xc2\xa3" "1,200,000\0" "1/3\0" "0.1 + 0.2\0" "EUR 18\0" "71.34+27.375-\0"
                                               "2**3\0" "\xc2\xa5" "178 million\0" "The final answer is $30 million.\0"
                                               "-(2 - 5) * 4\0" "1 / 0";
        const double values[10] = {1200000.0, 0.3333333333333333, 0.30000000000000004, 18.0, 0.0, 8.0, 178.0, 30.0,
                                   12.0, 1.0};
        unsigned char floats[10] = {0};
        unsigned char decided[10];
        double ratio[10];
        CHECK(fs_decide_peer_acc(FS_PEER_RULE_FINANCEMATH, cleaned, (int32_t)sizeof cleaned - 1, 10, values, 10, floats,
                                 10, decided, 10, ratio, 10) == FS_OK);
        CHECK(decided[0] == (FS_PEER_EXACT << 1 | 1) && decided[1] == (FS_PEER_EXACT << 1 | 1));
        CHECK(decided[2] == (FS_PEER_EXACT << 1 | 1) && decided[3] == (FS_PEER_EXACT << 1 | 1));
        CHECK(decided[4] == (FS_PEER_EVAL_FAILED_ZERO << 1 | 1)); /* a SyntaxError reads 0, and 0 matches 0 */
        CHECK(decided[5] == 0);                                   /* `**`: the host's */
        CHECK(decided[6] == (FS_PEER_EXACT << 1 | 1));
        CHECK(decided[7] == (FS_PEER_EVAL_FAILED_ZERO << 1));     /* `The final answer is 30 `: a SyntaxError */
        CHECK(decided[8] == (FS_PEER_EXACT << 1 | 1));
        CHECK(decided[9] == 0);                                   /* ZeroDivisionError: the host's */
    }
    /* eval() of the cleaned text: a bracket never closed is a SyntaxError (0); a string, and a tuple (the
     * peer's list), are no number; == a bool is False */
    {
        static const unsigned char texts[] = "sqrt((0.30\0" "\"0.06\"\0" "1,000 / 1.1768\0" "\"0.06\"\0" "Step 4: Add";
        const double values[5] = {1.0, 0.06, 1000.0, 1.0, 4.0};
        const unsigned char gold_kind[5] = {FS_PEER_GOLD_FLOAT, FS_PEER_GOLD_FLOAT, FS_PEER_GOLD_FLOAT, FS_PEER_GOLD_BOOL,
                                            FS_PEER_GOLD_FLOAT};
        unsigned char decided[5];
        double ratio[5];
        CHECK(fs_decide_peer_acc(FS_PEER_RULE_FINANCEMATH, texts, (int32_t)sizeof texts - 1, 5, values, 5, gold_kind, 5,
                                 decided, 5, ratio, 5) == FS_OK);
        CHECK(decided[0] == (FS_PEER_EVAL_FAILED_ZERO << 1) && decided[1] == (FS_PEER_NON_NUMERIC_VALUE << 1));
        CHECK(decided[2] == (FS_PEER_NON_NUMERIC_VALUE << 1) && decided[3] == (FS_PEER_BOOL_EQUALITY << 1));
        CHECK(decided[4] == (FS_PEER_EVAL_FAILED_ZERO << 1));
    }
    CHECK(fs_decide_peer_acc(FS_PEER_RULE_FINANCEMATH, text, length, 6, golds, 7, kinds, 7, outcomes, 7, ratios, 7) ==
          FS_ERR_BAD_PEER_BATCH);                                   /* six rows, six separators */
    CHECK(fs_decide_peer_acc(2, text, length, 7, golds, 7, kinds, 7, outcomes, 7, ratios, 7) == FS_ERR_BAD_PEER_BATCH);
    CHECK(fs_decide_peer_acc(FS_PEER_RULE_FINANCEMATH, text, length, 7, golds, 7, kinds, 7, outcomes, 6, ratios, 7) ==
          FS_ERR_BUFFER_TOO_SHORT);
    CHECK(fs_decide_peer_acc(FS_PEER_RULE_FINANCEMATH, text, -1, 7, golds, 7, kinds, 7, outcomes, 7, ratios, 7) ==
          FS_ERR_NEGATIVE_LENGTH);
    CHECK(fs_decide_peer_acc(FS_PEER_RULE_FINANCEMATH, NULL, 0, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0) == FS_OK);
}

/* fs_locate_boxed: each case worked out by hand from the boxed rule of the protocol files (the content
 * of the last complete \boxed{...}; a complete box inside a never-closed last one; braces nested
 * deeper than 8: too deep), and its refusals. */
static int32_t boxed_at(const char *text, int32_t *start, int32_t *end) {
    int32_t out[3] = {-1, -1, -1};
    CHECK(fs_locate_boxed((const unsigned char *)text, (int32_t)strlen(text), out, 3) == FS_OK);
    *start = out[1];
    *end = out[2];
    return out[0];
}

static void test_locate_boxed(void) {
    int32_t start, end, out[3];
    char deep[64];
    CHECK(boxed_at("no box", &start, &end) == FS_BOXED_NO_BOX && start == 0 && end == 0);
    CHECK(boxed_at("", &start, &end) == FS_BOXED_NO_BOX);
    CHECK(boxed_at("\\boxed{1} then \\boxed{22}", &start, &end) == FS_BOXED_FOUND && start == 22 && end == 24);
    CHECK(boxed_at("\\boxed{{1}}", &start, &end) == FS_BOXED_FOUND && start == 7 && end == 10);
    CHECK(boxed_at("\\boxed{", &start, &end) == FS_BOXED_NO_BOX);
    CHECK(boxed_at("\\boxed{The answer is \\boxed{5}", &start, &end) == FS_BOXED_FOUND && start == 28 && end == 29);
    CHECK(boxed_at("\\boxed{a \\boxed{1} \\boxed{2} {x}", &start, &end) == FS_BOXED_FOUND && start == 26 && end == 27);
    CHECK(boxed_at("\\boxed{\\boxed{\\boxed{3}}", &start, &end) == FS_BOXED_FOUND && start == 14 && end == 24 - 1);
    CHECK(boxed_at("\\boxed{4}\\boxed{x", &start, &end) == FS_BOXED_FOUND && start == 7 && end == 8);
    CHECK(boxed_at("\\boxed{4}\\boxed{{}", &start, &end) == FS_BOXED_FOUND && start == 7 && end == 8);
    CHECK(boxed_at("}}\\boxed{5}}}", &start, &end) == FS_BOXED_FOUND && start == 9 && end == 10);
    /* level 8 is allowed, level 9 is too deep */
    strcpy(deep, "\\boxed{{{{{{{{8}}}}}}}}");
    CHECK(boxed_at(deep, &start, &end) == FS_BOXED_FOUND && start == 7 && end == 22);
    strcpy(deep, "\\boxed{{{{{{{{{9}}}}}}}}}");
    CHECK(boxed_at(deep, &start, &end) == FS_BOXED_TOO_DEEP);
    /* after a too-deep brace the text up to the next \boxed{ is skipped; a complete box there is read */
    CHECK(boxed_at("\\boxed{{{{{{{{{ \\boxed{7}", &start, &end) == FS_BOXED_FOUND && start == 23 && end == 24);
    /* a never-closed last box after a too-deep one: too deep, even with a complete box inside it */
    CHECK(boxed_at("\\boxed{{{{{{{{{}\\boxed{\\boxed{5}", &start, &end) == FS_BOXED_TOO_DEEP);
    /* the refusals of the call */
    CHECK(fs_locate_boxed((const unsigned char *)"x", 1, out, 2) == FS_ERR_BUFFER_TOO_SHORT);
    CHECK(fs_locate_boxed((const unsigned char *)"x", -1, out, 3) == FS_ERR_NEGATIVE_LENGTH);
    CHECK(fs_locate_boxed(NULL, 1, out, 3) == FS_ERR_NULL_BUFFER);
    CHECK(fs_locate_boxed(NULL, 0, out, 3) == FS_OK && out[0] == FS_BOXED_NO_BOX);
}

/* fs_locate_phrase: each case worked out by hand from the phrase rule (the last marker, its words
 * separated by runs of 1 to 8 of ' ', '\t', '*', '_', any case, not joined to a letter; at each end
 * the first marker in the order that occurs there decides it), and its refusals. */
static const char V1_MARKERS[] = "final answer is\nthe answer is"; /* longest first, as finscore sends them */

static int32_t phrase_at(const char *text, const char *markers, int32_t *start, int32_t *end) {
    int32_t out[3] = {-1, -1, -1};
    CHECK(fs_locate_phrase((const unsigned char *)text, (int32_t)strlen(text), (const unsigned char *)markers,
                           (int32_t)strlen(markers), out, 3) == FS_OK);
    *start = out[1];
    *end = out[2];
    return out[0];
}

static int32_t phrase_status(const char *markers) {
    int32_t out[3];
    return fs_locate_phrase((const unsigned char *)"x", 1, (const unsigned char *)markers, (int32_t)strlen(markers),
                            out, 3);
}

static void test_locate_phrase(void) {
    int32_t start, end, out[3];
    char many[2048];
    int i;
    CHECK(phrase_at("no marker", V1_MARKERS, &start, &end) == FS_PHRASE_NONE && start == 0 && end == 0);
    CHECK(phrase_at("", V1_MARKERS, &start, &end) == FS_PHRASE_NONE);
    CHECK(phrase_at("So the answer is 5.", V1_MARKERS, &start, &end) == FS_PHRASE_FOUND && start == 3 && end == 16);
    /* the last one; any case; separators 1 to 8 of ' ' '\t' '*' '_' */
    CHECK(phrase_at("the answer is 1, THE **Answer**\t_is_ 2", V1_MARKERS, &start, &end) == FS_PHRASE_FOUND &&
          start == 17 && end == 35);
    CHECK(phrase_at("the answer is 1; the answer        is 2", V1_MARKERS, &start, &end) == FS_PHRASE_FOUND &&
          start == 17 && end == 37);
    CHECK(phrase_at("the answer is 1; the answer         is 2", V1_MARKERS, &start, &end) == FS_PHRASE_FOUND &&
          start == 0 && end == 13); /* nine spaces: not a separator */
    CHECK(phrase_at("theanswer is 1", V1_MARKERS, &start, &end) == FS_PHRASE_NONE);
    CHECK(phrase_at("the\nanswer is 1", V1_MARKERS, &start, &end) == FS_PHRASE_NONE);
    /* joined to a letter on either side: passed over, the one before is found */
    CHECK(phrase_at("the answer is 1, the answer isx 2", V1_MARKERS, &start, &end) == FS_PHRASE_FOUND && start == 0 &&
          end == 13);
    CHECK(phrase_at("the answer is 1, xthe answer is 2", V1_MARKERS, &start, &end) == FS_PHRASE_FOUND && start == 0 &&
          end == 13);
    CHECK(phrase_at("3the answer is_4", V1_MARKERS, &start, &end) == FS_PHRASE_FOUND && start == 1 && end == 14);
    CHECK(phrase_at("the final answer is 7", V1_MARKERS, &start, &end) == FS_PHRASE_FOUND && start == 4 && end == 19);
    /* the first marker in the order that occurs at an end decides it: a longer one joined to a letter
     * hides the shorter one ending there */
    CHECK(phrase_at("xthe answer is 5", "the answer is\nanswer is", &start, &end) == FS_PHRASE_NONE);
    CHECK(phrase_at("xthe answer is 5", "answer is\nthe answer is", &start, &end) == FS_PHRASE_FOUND && start == 5 &&
          end == 14);
    CHECK(phrase_at("the answer is 5", "the answer is\nanswer is", &start, &end) == FS_PHRASE_FOUND && start == 0 &&
          end == 13);
    /* a byte that is no letter (>= 0x80) does not join */
    CHECK(phrase_at("\xc3\xa9the answer is\xc3\xa9", V1_MARKERS, &start, &end) == FS_PHRASE_FOUND && start == 2 &&
          end == 15);
    /* the refusals of the call */
    CHECK(phrase_status("") == FS_ERR_BAD_PHRASE_MARKERS);
    CHECK(phrase_status("the  answer") == FS_ERR_BAD_PHRASE_MARKERS);
    CHECK(phrase_status(" the") == FS_ERR_BAD_PHRASE_MARKERS);
    CHECK(phrase_status("the ") == FS_ERR_BAD_PHRASE_MARKERS);
    CHECK(phrase_status("the\n") == FS_ERR_BAD_PHRASE_MARKERS);
    CHECK(phrase_status("the\n\nanswer") == FS_ERR_BAD_PHRASE_MARKERS);
    CHECK(phrase_status("The") == FS_ERR_BAD_PHRASE_MARKERS);
    CHECK(phrase_status("a*b") == FS_ERR_BAD_PHRASE_MARKERS);
    CHECK(phrase_status("a_b") == FS_ERR_BAD_PHRASE_MARKERS);
    CHECK(phrase_status("a\tb") == FS_ERR_BAD_PHRASE_MARKERS);
    CHECK(phrase_status("a b c d e f g h i j k l m n o p") == FS_OK); /* 16 words */
    CHECK(phrase_status("a b c d e f g h i j k l m n o p q") == FS_ERR_BAD_PHRASE_MARKERS);
    for (i = 0; i < 32; i++) {
        many[2 * i] = 'a';
        many[2 * i + 1] = '\n';
    }
    many[63] = '\0'; /* 32 markers */
    CHECK(phrase_status(many) == FS_OK);
    many[63] = '\n';
    many[64] = 'a';
    many[65] = '\0'; /* 33 */
    CHECK(phrase_status(many) == FS_ERR_BAD_PHRASE_MARKERS);
    memset(many, 'a', 1025);
    many[1025] = '\0';
    CHECK(phrase_status(many) == FS_ERR_BAD_PHRASE_MARKERS);
    many[1024] = '\0';
    CHECK(phrase_status(many) == FS_OK);
    CHECK(fs_locate_phrase((const unsigned char *)"x", 1, (const unsigned char *)"is", 2, out, 2) ==
          FS_ERR_BUFFER_TOO_SHORT);
    CHECK(fs_locate_phrase((const unsigned char *)"x", -1, (const unsigned char *)"is", 2, out, 3) ==
          FS_ERR_NEGATIVE_LENGTH);
    CHECK(fs_locate_phrase((const unsigned char *)"x", 1, (const unsigned char *)"is", -2, out, 3) ==
          FS_ERR_NEGATIVE_LENGTH);
    CHECK(fs_locate_phrase(NULL, 1, (const unsigned char *)"is", 2, out, 3) == FS_ERR_NULL_BUFFER);
    CHECK(fs_locate_phrase((const unsigned char *)"x", 1, NULL, 0, out, 3) == FS_ERR_NULL_BUFFER);
    CHECK(fs_locate_phrase(NULL, 0, (const unsigned char *)"is", 2, out, 3) == FS_OK && out[0] == FS_PHRASE_NONE);
}

int main(void) {
    test_worked_programs();
    test_rounding();
    test_pow_rules();
    test_sum_rules();
    test_refusals();
    test_buffer_checks();
    test_plain_reader();
    test_row_placement();
    test_contract_edges();
    test_answer_gold_scales();
    test_packed_calls();
    test_status_names();
    test_answers();
    test_peer_acc();
    test_locate_boxed();
    test_locate_phrase();
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("all core checks passed\n");
    return 0;
}

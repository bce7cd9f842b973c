/*
 * A line-oriented driver over the native build of the core, so that the Python
 * tests can compare it with CPython on many inputs while it runs under
 * AddressSanitizer and UndefinedBehaviorSanitizer.
 *
 * Input lines (doubles as the 16 hex digits of their IEEE bits):
 *   round X N          -> fs_round_half_even_scaled(X, 10**N)
 *   pow A B            -> fs_python_pow(A, B)
 *   sum RULE K X1..XK  -> fs_python_sum over K values (K <= 64)
 *   read N TEXT TABLE  -> fs_read_execute_batch of N programs (N <= 64); TEXT and TABLE are
 *                         hex bytes ("-" for none), the table shared by every program
 * Output, one line each: STATUS BITS (BITS is 0 when there is no value); for read, one
 * STATUS BITS pair per program on the line.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "finscore_core.h"

#define MAX_VALUES 64
#define MAX_TEXT 4096

static double from_bits(uint64_t bits) {
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

static uint64_t to_bits(double d) {
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
}


/* Hex text into bytes; the byte count, or -1. "-" is empty. */
static int32_t read_hex(unsigned char *out, int32_t capacity) {
    char hex[2 * MAX_TEXT + 2];
    int32_t i, n;
    if (scanf("%8193s", hex) != 1) return -1;
    if (strcmp(hex, "-") == 0) return 0;
    n = (int32_t)strlen(hex);
    if (n % 2 || n / 2 > capacity) return -1;
    for (i = 0; i < n / 2; i++) {
        unsigned int byte;
        if (sscanf(hex + 2 * i, "%2x", &byte) != 1) return -1;
        out[i] = (unsigned char)byte;
    }
    return n / 2;
}

static int run_read(void) {
    static unsigned char text[MAX_TEXT], tables[MAX_TEXT];
    static fs_step steps[256];
    static double table_values[256], values[256];
    static int32_t types[256], program_tables[MAX_VALUES], spans[2 * MAX_VALUES];
    static fs_result results[MAX_VALUES];
    int32_t count, text_len, tables_len, status, p, table_span[2];
    if (scanf("%d", &count) != 1 || count < 0 || count > MAX_VALUES) return 2;
    text_len = read_hex(text, MAX_TEXT);
    tables_len = read_hex(tables, MAX_TEXT);
    if (text_len < 0 || tables_len < 0) return 2;
    table_span[0] = 0;
    table_span[1] = tables_len;
    for (p = 0; p < count; p++) program_tables[p] = tables_len > 0 ? 0 : -1;
    status = fs_read_execute_batch(text, text_len, count, tables, tables_len, table_span, 1,
                                   program_tables, count, FS_SUM_PY311, steps, 256, table_values,
                                   256, values, 256, types, 256, spans, 2 * count, results, count);
    printf("%d", (int)status);
    if (status == FS_OK) {
        for (p = 0; p < count; p++)
            printf(" %d %016" PRIx64, (int)results[p].status,
                   results[p].has_value ? to_bits(results[p].value) : (uint64_t)0);
    }
    printf("\n");
    return 0;
}

int main(void) {
    static const double powers[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                      1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    char verb[8];
    while (scanf("%7s", verb) == 1) {
        double out = 0.0;
        int32_t status;
        if (strcmp(verb, "round") == 0) {
            uint64_t x;
            int n;
            if (scanf("%" SCNx64 " %d", &x, &n) != 2 || n < 0 || n > 22) return 2;
            status = fs_round_half_even_scaled(from_bits(x), powers[n], &out);
        } else if (strcmp(verb, "pow") == 0) {
            uint64_t a, b;
            if (scanf("%" SCNx64 " %" SCNx64, &a, &b) != 2) return 2;
            status = fs_python_pow(from_bits(a), from_bits(b), &out);
        } else if (strcmp(verb, "sum") == 0) {
            double values[MAX_VALUES];
            int rule, k, i;
            if (scanf("%d %d", &rule, &k) != 2 || k < 0 || k > MAX_VALUES) return 2;
            for (i = 0; i < k; i++) {
                uint64_t x;
                if (scanf("%" SCNx64, &x) != 1) return 2;
                values[i] = from_bits(x);
            }
            status = fs_python_sum(values, k, rule, &out);
        } else if (strcmp(verb, "read") == 0) {
            if (run_read() != 0) return 2;
            continue;
        } else {
            return 2;
        }
        printf("%d %016" PRIx64 "\n", (int)status, status == FS_OK ? to_bits(out) : (uint64_t)0);
    }
    return 0;
}

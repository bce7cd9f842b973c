/*
 * A line-oriented driver over the native build of the core, so that the Python
 * tests can compare it with CPython on many inputs while it runs under
 * AddressSanitizer and UndefinedBehaviorSanitizer.
 *
 * Input lines (doubles as the 16 hex digits of their IEEE bits):
 *   round X N          -> fs_round_half_even_scaled(X, 10**N)
 *   pow A B            -> fs_python_pow(A, B)
 *   sum RULE K X1..XK  -> fs_python_sum over K values (K <= 64)
 * Output, one line each: STATUS BITS (BITS is 0 when there is no value).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "finscore_core.h"

#define MAX_VALUES 64

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
        } else {
            return 2;
        }
        printf("%d %016" PRIx64 "\n", (int)status, status == FS_OK ? to_bits(out) : (uint64_t)0);
    }
    return 0;
}

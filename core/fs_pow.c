/*
 * CPython's float ** float.
 *
 * Python does not hand every pair to libm pow(): it settles zero, one, nan, inf
 * and negative bases itself and raises where the result is not a float. Those
 * rules are reproduced here in Python's own order; what remains goes to libm pow
 * (musl's inside the WebAssembly module), exactly as CPython does.
 */
#include <math.h>

#include "finscore_core.h"
#include "fs_internal.h"

static int is_odd_integer(double x) { return fmod(fabs(x), 2.0) == 1.0; }

int32_t fs_python_pow(double base, double exponent, double *out) {
    int negate = 0;
    double result;

    if (out == 0) return FS_ERR_NULL_BUFFER;
    if (!fs_fits_memory(out, 1, sizeof *out)) return FS_ERR_BUFFER_OUTSIDE_MEMORY;
    if (exponent == 0.0) { /* x ** 0 is 1, even nan ** 0 and 0 ** 0 */
        *out = 1.0;
        return FS_OK;
    }
    if (isnan(base)) { /* nan ** y is nan unless y is 0 */
        *out = base;
        return FS_OK;
    }
    if (isnan(exponent)) { /* x ** nan is nan, except 1 ** nan = 1 */
        *out = base == 1.0 ? 1.0 : exponent;
        return FS_OK;
    }
    if (isinf(exponent)) {
        double magnitude = fabs(base);
        if (magnitude == 1.0)
            *out = 1.0;
        else if ((exponent > 0.0) == (magnitude > 1.0))
            *out = fabs(exponent); /* inf */
        else
            *out = 0.0;
        return FS_OK;
    }
    if (isinf(base)) { /* inf ** y: inf for y > 0, 0 for y < 0, signed when y is odd */
        int odd = is_odd_integer(exponent);
        if (exponent > 0.0)
            *out = odd ? base : fabs(base);
        else
            *out = odd ? copysign(0.0, base) : 0.0;
        return FS_OK;
    }
    if (base == 0.0) { /* 0 ** y: 0 for y > 0 (signed when y is odd), error for y < 0 */
        if (exponent < 0.0) return FS_ERR_ZERO_TO_NEGATIVE_POWER;
        *out = is_odd_integer(exponent) ? base : 0.0;
        return FS_OK;
    }
    if (base < 0.0) {
        if (exponent != floor(exponent)) {
            /* Python computes a complex power here, as |base| ** exponent times a phase;
             * it raises OverflowError when that magnitude overflows. */
            return isinf(pow(-base, exponent)) ? FS_ERR_EXP_COMPLEX_OVERFLOW
                                               : FS_ERR_NEGATIVE_BASE_FRACTIONAL_EXPONENT;
        }
        base = -base;
        negate = is_odd_integer(exponent);
    }
    if (base == 1.0) { /* 1 ** y and (-1) ** integer never reach libm */
        *out = negate ? -1.0 : 1.0;
        return FS_OK;
    }
    /* base finite, positive, not 1; exponent finite and nonzero. */
    result = pow(base, exponent);
    if (isinf(result)) return FS_ERR_EXP_OVERFLOW; /* Python raises OverflowError */
    *out = negate ? -result : result;
    return FS_OK;
}

/*
 * Exact decimal rounding, as CPython's round(x, n).
 *
 * CPython rounds by printing x correctly rounded to n decimal places (ties to
 * even, decided on the exact binary value of x) and reading that decimal back
 * correctly rounded. Multiplying x by 10**n in floating point and rounding that
 * product decides ties on a rounded number and gets values such as 3.268485
 * wrong. Here every quantity is exact: x = m * 2**-k with m a 53-bit integer, so
 * x * 10**n = m * 5**n / 2**(k-n) is an exact 128-bit integer product scaled by a
 * power of two (an error-free product), the half-even decision is made on its
 * bits, and the rounded integer r is divided by 10**n with one correct rounding.
 * Portable C99: 128-bit arithmetic is done on pairs of 64-bit words.
 */
#include <math.h>
#include <stdint.h>

#include "finscore_core.h"
#include "fs_internal.h"

typedef struct u128 {
    uint64_t hi;
    uint64_t lo;
} u128;

const double FS_POWERS_OF_TEN[23] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* 5**n for n = 0..22; 5**22 < 2**52. */
static uint64_t power_of_five(int n) {
    uint64_t p = 1;
    int i;
    for (i = 0; i < n; i++) p *= 5u;
    return p;
}

static u128 mul_64x64(uint64_t a, uint64_t b) {
    uint64_t a_lo = a & 0xffffffffu, a_hi = a >> 32;
    uint64_t b_lo = b & 0xffffffffu, b_hi = b >> 32;
    uint64_t ll = a_lo * b_lo, lh = a_lo * b_hi, hl = a_hi * b_lo, hh = a_hi * b_hi;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    u128 r;
    r.lo = (ll & 0xffffffffu) | (mid << 32);
    r.hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    return r;
}

static int bit_length(u128 v) {
    int n = 0;
    uint64_t w = v.hi ? v.hi : v.lo;
    while (w) {
        n++;
        w >>= 1;
    }
    return v.hi ? n + 64 : n;
}

static u128 shift_left(u128 v, int s) {
    u128 r;
    if (s == 0) return v;
    if (s >= 64) {
        r.hi = v.lo << (s - 64);
        r.lo = 0;
    } else {
        r.hi = (v.hi << s) | (v.lo >> (64 - s));
        r.lo = v.lo << s;
    }
    return r;
}

static u128 shift_right(u128 v, int s) {
    u128 r;
    if (s == 0) return v;
    if (s >= 64) {
        r.lo = v.hi >> (s - 64);
        r.hi = 0;
    } else {
        r.lo = (v.lo >> s) | (v.hi << (64 - s));
        r.hi = v.hi >> s;
    }
    return r;
}

static int bit_at(u128 v, int i) {
    return (int)((i >= 64 ? v.hi >> (i - 64) : v.lo >> i) & 1u);
}

/* Whether any of the low s bits of v (0 <= s <= 128) is set. */
static int any_low_bits(u128 v, int s) {
    if (s <= 0) return 0;
    if (s < 64) return (v.lo & ((UINT64_C(1) << s) - 1u)) != 0;
    if (v.lo != 0) return 1;
    if (s == 64) return 0;
    if (s < 128) return (v.hi & ((UINT64_C(1) << (s - 64)) - 1u)) != 0;
    return v.hi != 0;
}

/* The low s bits of v (s >= 1) compared with 2**(s-1): -1 below half, 0 exactly half, 1 above. */
static int compare_low_bits_with_half(u128 v, int s) {
    if (!bit_at(v, s - 1)) return -1;
    return any_low_bits(v, s - 1) ? 1 : 0;
}

static u128 add_one(u128 v) {
    v.lo += 1u;
    if (v.lo == 0) v.hi += 1u;
    return v;
}

/* Long division of v by d (0 < d < 2**62): quotient, and whether a remainder is left. */
static u128 divide_by_small(u128 v, uint64_t d, int *inexact) {
    u128 q = {0, 0};
    uint64_t rem = 0;
    int i;
    for (i = 127; i >= 0; i--) {
        rem = (rem << 1) | (uint64_t)bit_at(v, i);
        q = shift_left(q, 1);
        if (rem >= d) {
            rem -= d;
            q.lo |= 1u;
        }
    }
    *inexact = rem != 0;
    return q;
}

/* Correctly rounded (ties to even) double of q * 2**exponent, where q is at least 2**54
 * so that its low bits hold the round and guard information, and `sticky` says that a
 * nonzero remainder lies below q's last bit. The result is far from subnormal range. */
static double to_double_half_even(u128 q, int sticky, int exponent) {
    int drop = bit_length(q) - 53;
    u128 kept = shift_right(q, drop);
    int versus_half = compare_low_bits_with_half(q, drop);
    if (versus_half == 0 && sticky) versus_half = 1;
    if (versus_half > 0 || (versus_half == 0 && (kept.lo & 1u))) kept = add_one(kept);
    /* kept <= 2**53, exact as a double; the scaling by a power of two is exact. */
    return ldexp((double)kept.lo, drop + exponent);
}

int fs_decimal_places_of_scale(double scale) {
    int n;
    for (n = 0; n <= 22; n++) {
        if (scale == FS_POWERS_OF_TEN[n]) return n;
    }
    return -1;
}

double fs_round_places(double x, int places) {
    int binary_exponent, fraction_bits, shift, versus_half, inexact;
    uint64_t mantissa;
    u128 product, rounded, numerator, quotient;
    double magnitude;

    if (!isfinite(x) || x == 0.0) return x;
    magnitude = frexp(fabs(x), &binary_exponent);
    mantissa = (uint64_t)ldexp(magnitude, 53); /* exact: 53 significant bits */
    fraction_bits = 53 - binary_exponent;       /* x = +-mantissa * 2**-fraction_bits */
    if (fraction_bits <= places) return x;      /* x * 10**places is already an integer */

    /* |x| * 10**places = mantissa * 5**places / 2**shift, exactly. */
    product = mul_64x64(mantissa, power_of_five(places));
    shift = fraction_bits - places;
    if (shift > 110) {
        /* product < 2**105 <= 2**(shift - 1): below one half, rounds to zero */
        return copysign(0.0, x);
    }
    rounded = shift_right(product, shift);
    versus_half = compare_low_bits_with_half(product, shift);
    if (versus_half > 0 || (versus_half == 0 && (rounded.lo & 1u))) rounded = add_one(rounded);
    if (rounded.hi == 0 && rounded.lo == 0) return copysign(0.0, x);

    /* x rounded = rounded / 10**places. When the integer fits a double exactly, one IEEE
     * division by the exact power of ten is the correctly rounded quotient. */
    if (rounded.hi == 0 && rounded.lo <= (UINT64_C(1) << 53))
        return copysign((double)rounded.lo / FS_POWERS_OF_TEN[places], x);
    /* Otherwise (rounded / 5**places) * 2**-places, computed exactly: scale the numerator
     * up to 127 bits so that the quotient keeps at least 75 bits. */
    shift = 127 - bit_length(rounded);
    numerator = shift_left(rounded, shift);
    quotient = divide_by_small(numerator, power_of_five(places), &inexact);
    return copysign(to_double_half_even(quotient, inexact, -shift - places), x);
}

int32_t fs_round_half_even_scaled(double x, double scale, double *out) {
    int places;
    if (out == 0) return FS_ERR_NULL_BUFFER;
    if (!fs_fits_memory(out, 1, sizeof *out)) return FS_ERR_BUFFER_OUTSIDE_MEMORY;
    places = fs_decimal_places_of_scale(scale);
    if (places < 0) return FS_ERR_BAD_SCALE;
    *out = fs_round_places(x, places);
    return FS_OK;
}

/*
 * The eval()-based peer protocols' common rows, in the core (finscore.protocols.batch).
 *
 * FinanceMath / DocMath-Eval and FinanceReasoning / FinMMR call eval() on the model's answer.
 * Most answers are plain decimals (`-12`, `3.25`): for those, finscore.protocols.arith's
 * plain_number gives eval()'s value without parsing, and this file holds the same reading
 * and the peers' comparisons for them, so that a batch costs one call. A row is decided here
 * only when every bit is certain to be CPython's:
 *
 * - the answer (FinanceMath: after str.strip() of ASCII white space; FinanceReasoning: raw)
 *   is `[-+]?[0-9]+(\.[0-9]+)?` of at most 30 bytes, from a raw answer of at most 64 bytes;
 * - an integer has at most 10 digits and no leading zero before other digits (`01` is a
 *   SyntaxError in eval: the host's); so it, and it times 100000, are exact doubles and
 *   every int-float comparison and division the peer makes gives the same bits here;
 * - a decimal's digits form an integer M <= 2**53 with f <= 22 fraction digits: M and 10**f
 *   are exact doubles and M / 10**f is the one correctly rounded division float() returns;
 * - the gold is a float (finite, below 1e300 for FinanceMath, so math.ceil(x * 1000) cannot
 *   overflow), a small int, or a bool, as the host says in `gold_kinds`;
 * - FinanceMath's power-of-ten rule asks whether math.log10(q) is an integer: where q lies
 *   more than one part in 1e12 from every power of ten, the true log10(q) is more than
 *   4.3e-13 (over 7 ulps of any value up to 308) from an integer, so a libm within a few ulps
 *   (glibc documents 2) returns no integer; where q is exactly 10**k (k <= 22) the host's own
 *   math.log10 decided it (`log10_integral`, bit k); every other q near a power is deferred.
 *
 * Every other row is deferred (outcome 0) and the host decides it with the full reading.
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "finscore_core.h"
#include "fs_internal.h"

#define MAX_RAW_BYTES 64
#define MAX_PLAIN_BYTES 30
#define MAX_INTEGER_DIGITS 10
#define MANTISSA_LIMIT ((uint64_t)1 << 53)
#define NEAR_POWER 1e-12
#define LARGEST_POWER 308

/* The characters of ASCII str.isspace() holds: what str.strip() removes from ASCII text. */
static int is_python_space(unsigned char c) {
    return c == ' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F);
}

/* The value eval() gives a plain decimal, or 0 (not decided here). *is_int says whether it is an int. */
static int read_plain(const unsigned char *at, int32_t length, double *value, int *is_int) {
    int32_t i = 0, integer_digits = 0, fraction_digits = 0;
    uint64_t mantissa = 0;
    int negative = 0, nonzero_seen = 0, significant = 0;
    if (length < 1 || length > MAX_PLAIN_BYTES) return 0;
    if (at[0] == '-' || at[0] == '+') {
        negative = at[0] == '-';
        i = 1;
    }
    for (; i < length && at[i] >= '0' && at[i] <= '9'; i++) {
        integer_digits++;
        if (at[i] != '0') nonzero_seen = 1;
        if (nonzero_seen) significant++;
        if (significant > 19) return 0;
        mantissa = mantissa * 10u + (uint64_t)(at[i] - '0');
    }
    if (integer_digits == 0) return 0;
    if (i == length) {
        /* an int: `0`, `000` are 0; `01` is a SyntaxError (the host's) */
        if (at[length - integer_digits] == '0' && nonzero_seen) return 0;
        if (integer_digits > MAX_INTEGER_DIGITS) return 0;
        *value = (double)mantissa;
        if (negative && mantissa != 0) *value = -*value;
        *is_int = 1;
        return 1;
    }
    if (at[i] != '.') return 0;
    for (i++; i < length && at[i] >= '0' && at[i] <= '9'; i++) {
        fraction_digits++;
        if (at[i] != '0') nonzero_seen = 1;
        if (nonzero_seen) significant++;
        if (significant > 19) return 0;
        mantissa = mantissa * 10u + (uint64_t)(at[i] - '0');
    }
    if (i != length || fraction_digits == 0 || fraction_digits > 22 || mantissa > MANTISSA_LIMIT) return 0;
    *value = (double)mantissa / FS_POWERS_OF_TEN[fraction_digits];
    if (negative) *value = -*value;
    *is_int = 0;
    return 1;
}

/* eps = abs(gt) * tolerance; pred >= gt - eps and pred <= gt + eps */
static int within(double pred, double gt, double tolerance) {
    double eps = fabs(gt) * tolerance;
    return pred >= gt - eps && pred <= gt + eps;
}

/* 1: math.log10(q) is an integer; 0: it is not; -1: not certain here. q >= 1, finite. */
static int log10_is_integer(double q, int32_t log10_integral) {
    double power = 1.0, next;
    int k = 0;
    for (;;) {
        if (q == power && k <= 22) return (log10_integral >> k) & 1;
        if (fabs(q - power) <= power * NEAR_POWER) return -1;
        if (k == LARGEST_POWER) return 0;
        next = k < 22 ? FS_POWERS_OF_TEN[k + 1] : power * 10.0;
        if (q < next && fabs(next - q) > next * NEAR_POWER) return 0;
        power = next;
        k++;
    }
}

static unsigned char outcome(int reason, int accepted) {
    return (unsigned char)((reason << 1) | (accepted ? 1 : 0));
}

/* FinanceMath's compare_two_numbers(p, gt) (p a plain number, gt a number): its outcome, or 0. */
static unsigned char compare_two_numbers(double p, double gt, int32_t log10_integral) {
    double v1 = fmax(fabs(gt), fabs(p)), v2 = fmin(fabs(gt), fabs(p));
    int reason = 0;
    if (v1 != 0 && v2 != 0) {
        double q = v1 / v2;
        int integral;
        if (isinf(q)) return 0; /* int(math.log10(inf)) raises OverflowError: the host's */
        integral = log10_is_integer(q, log10_integral);
        if (integral < 0) return 0;
        if (integral) reason = p == -gt ? FS_PEER_SIGN_IGNORED : FS_PEER_POWER_OF_TEN_RATIO;
    }
    if (!reason) {
        if (v2 <= v1 / 50 && within(v2 * 100, v1, 0.0015)) reason = FS_PEER_PERCENT_SCALE;
        else if (v2 <= v1 / 500 && within(v2 * 1000, v1, 0.0015)) reason = FS_PEER_THOUSAND_SCALE;
        else if (v2 <= v1 / 50000 && within(v2 * 100000, v1, 0.0015)) reason = FS_PEER_HUNDRED_THOUSAND_SCALE;
        else if (ceil(v1 * 1000) / 1000 == ceil(v2 * 1000) / 1000) reason = FS_PEER_THREE_DECIMAL_CEILING;
    }
    if (reason) return outcome(p == gt ? FS_PEER_EXACT : reason, 1);
    if (within(p, gt, 0.0015)) return outcome(p == gt ? FS_PEER_EXACT : FS_PEER_WITHIN_RELATIVE_TOLERANCE, 1);
    return outcome(FS_PEER_OUTSIDE_TOLERANCE, 0);
}

static unsigned char decide_row(int32_t rule, const unsigned char *at, int32_t length, double gt,
                                unsigned char gold_kind, int32_t log10_integral) {
    double p;
    int is_int = 0;
    if (length > MAX_RAW_BYTES || gold_kind > FS_PEER_GOLD_BOOL) return 0;
    if (rule == FS_PEER_RULE_FINANCEMATH) {
        while (length > 0 && is_python_space(at[0])) {
            at++;
            length--;
        }
        while (length > 0 && is_python_space(at[length - 1])) length--;
    }
    if (!read_plain(at, length, &p, &is_int)) return 0;
    if (gold_kind == FS_PEER_GOLD_BOOL) return outcome(FS_PEER_BOOL_EQUALITY, p == gt);
    if (rule == FS_PEER_RULE_FINANCEMATH) {
        if (!isfinite(gt) || fabs(gt) >= 1e300) return 0;
        return compare_two_numbers(p, gt, log10_integral);
    }
    if (within(p, gt, 0.002)) return outcome(p == gt ? FS_PEER_EXACT : FS_PEER_WITHIN_RELATIVE_TOLERANCE, 1);
    return outcome(FS_PEER_OUTSIDE_TOLERANCE, 0);
}

int32_t fs_decide_peer_acc(int32_t rule, const unsigned char *text, int32_t text_len, int32_t row_count,
                           const double *golds, int32_t golds_len, const unsigned char *gold_kinds,
                           int32_t gold_kinds_len, int32_t log10_integral, unsigned char *outcomes,
                           int32_t outcomes_len) {
    int32_t r, start = 0, end;
    if (text_len < 0 || row_count < 0 || golds_len < 0 || gold_kinds_len < 0 || outcomes_len < 0)
        return FS_ERR_NEGATIVE_LENGTH;
    if ((text == NULL && text_len) || (golds == NULL && golds_len) || (gold_kinds == NULL && gold_kinds_len) ||
        (outcomes == NULL && outcomes_len))
        return FS_ERR_NULL_BUFFER;
    if (rule != FS_PEER_RULE_FINANCEMATH && rule != FS_PEER_RULE_FINANCEREASONING) return FS_ERR_BAD_PEER_BATCH;
    if (golds_len < row_count || gold_kinds_len < row_count || outcomes_len < row_count)
        return FS_ERR_BUFFER_TOO_SHORT;
    if (!fs_fits_memory(text, text_len, 1) || !fs_fits_memory(golds, golds_len, 8) ||
        !fs_fits_memory(gold_kinds, gold_kinds_len, 1) || !fs_fits_memory(outcomes, outcomes_len, 1))
        return FS_ERR_BUFFER_OUTSIDE_MEMORY;
    /* the rows are separated by one NUL each: row_count - 1 of them, no other */
    if (row_count == 0) {
        if (text_len != 0) return FS_ERR_BAD_PEER_BATCH;
        return FS_OK;
    }
    {
        int32_t separators = 0, i;
        for (i = 0; i < text_len; i++) separators += text[i] == 0;
        if (separators != row_count - 1) return FS_ERR_BAD_PEER_BATCH;
    }
    for (r = 0; r < row_count; r++) {
        const unsigned char *found = memchr(text + start, 0, (size_t)(text_len - start));
        end = found == NULL ? text_len : (int32_t)(found - text);
        outcomes[r] = decide_row(rule, text + start, end - start, golds[r], gold_kinds[r], log10_integral);
        start = end + 1;
    }
    return FS_OK;
}

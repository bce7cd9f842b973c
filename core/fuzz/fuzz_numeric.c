/*
 * libFuzzer target: the numeric helpers fs_round_half_even_scaled, fs_python_pow and
 * fs_python_sum on raw doubles.
 *
 * Input: byte 0 picks the rounding scale (10**(b % 23), or a raw double when b >= 23) and
 * the summation rule; the rest is read as doubles: x, base, exponent, then the values to
 * sum. Beyond the sanitizers, it checks what must hold whatever the input: rounding at a
 * valid scale succeeds, is idempotent and keeps inf and nan; sums of one value give it back.
 */
#include <math.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static double take(const uint8_t **data, size_t *size) {
    double value = 0.0;
    if (*size >= sizeof(double)) {
        memcpy(&value, *data, sizeof(double));
        *data += sizeof(double), *size -= sizeof(double);
    }
    return value;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > (1u << 16)) return 0;
    uint8_t mode = data[0];
    data++, size--;
    double x = take(&data, &size), base = take(&data, &size), exponent = take(&data, &size);
    double out = 0.0, again = 0.0;

    int valid_scale = (mode & 0x7f) < 23;
    double scale = 1.0;
    for (int k = 0; k < (mode & 0x7f) % 23; k++) scale *= 10.0; /* exact up to 1e22 */
    if (!valid_scale) scale = base;
    int32_t status = fs_round_half_even_scaled(x, scale, &out);
    fs_fuzz_check_status(status);
    if (valid_scale) {
        if (status != FS_OK) abort();
        if (isnan(x) != isnan(out) || (isinf(x) && out != x)) abort();
        if (fs_round_half_even_scaled(out, scale, &again) != FS_OK) abort();
        if (!isnan(out) && again != out) abort();
    }

    fs_fuzz_check_status(fs_python_pow(base, exponent, &out));

    int32_t rule = (mode >> 7) & 1;
    int32_t count = (int32_t)(size / sizeof(double));
    double *values = fs_fuzz_copy(data, (size_t)count * sizeof(double));
    status = fs_python_sum(values, count, rule, &out);
    fs_fuzz_check_status(status);
    if (count == 1 && status == FS_OK && !isnan(values[0]) && out != values[0] + 0.0) abort();
    free(values);
    return 0;
}

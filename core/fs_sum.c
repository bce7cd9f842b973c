/*
 * CPython's builtin sum() over a list of floats.
 *
 * sum() starts from the integer 0, so the first float is added to 0.0 (which
 * turns -0.0 into 0.0). CPython 3.11 and older then add left to right; 3.12 and
 * newer add with Neumaier's compensation and fold the compensation in at the end
 * only when it is nonzero and finite. The two rules give different bits on the
 * same row, so the caller names the interpreter being imitated.
 */
#include <math.h>

#include "finscore_core.h"
#include "fs_internal.h"

int32_t fs_python_sum(const double *values, int32_t length, int32_t sum_rule, double *out) {
    double total, compensation = 0.0;
    int32_t i;

    if (length < 0) return FS_ERR_NEGATIVE_LENGTH;
    if (out == 0 || (values == 0 && length > 0)) return FS_ERR_NULL_BUFFER;
    if (!fs_fits_memory(out, 1, sizeof *out) || !fs_fits_memory(values, length, sizeof *values))
        return FS_ERR_BUFFER_OUTSIDE_MEMORY;
    if (sum_rule != FS_SUM_PY311 && sum_rule != FS_SUM_PY312) return FS_ERR_UNKNOWN_SUM_RULE;
    if (length == 0) return FS_ERR_EMPTY_ROW;

    total = 0.0 + values[0];
    for (i = 1; i < length; i++) {
        double x = values[i];
        if (sum_rule == FS_SUM_PY311) {
            total += x;
        } else {
            double t = total + x;
            if (fabs(total) >= fabs(x))
                compensation += (total - t) + x;
            else
                compensation += (x - t) + total;
            total = t;
        }
    }
    if (compensation != 0.0 && isfinite(compensation)) total += compensation;
    *out = total;
    return FS_OK;
}

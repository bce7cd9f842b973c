/* Internal helpers shared by the core's translation units; not part of the ABI. */
#ifndef FS_INTERNAL_H
#define FS_INTERNAL_H

#include <stdint.h>

/* 1e0 .. 1e22: the powers of ten that are exact doubles. */
extern const double FS_POWERS_OF_TEN[23];

/* n in 0..22 when scale is exactly 10**n, else -1. */
int fs_decimal_places_of_scale(double scale);

/* CPython's round(x, places) for places in 0..22. */
double fs_round_places(double x, int places);

#endif /* FS_INTERNAL_H */

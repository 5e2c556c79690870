/* Sums and differences of times and ids that saturate instead of
 * overflowing: a file may hold any 64-bit value (a start of INT64_MIN, an
 * end of INT64_MAX), and signed overflow is undefined in C. A result past
 * the range sticks at its end, which reads as "longer than anything". */
#ifndef RPDTOP_UTIL_SATMATH_H
#define RPDTOP_UTIL_SATMATH_H

#include <stdint.h>

static inline int64_t sat_add(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

static inline int64_t sat_sub(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_sub_overflow(a, b, &r))
		return b < 0 ? INT64_MAX : INT64_MIN;
	return r;
}

static inline int64_t sat_mul(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_mul_overflow(a, b, &r))
		return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
	return r;
}

/* An exact 128-bit sum held within the 64-bit range. */
static inline int64_t sat_from128(__int128 v)
{
	return v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : (int64_t)v;
}

#endif

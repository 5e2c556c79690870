/* Binary search over sorted 64-bit values (ids, times), and over any
 * monotone test. */
#ifndef RPDTOP_SEARCH_H
#define RPDTOP_SEARCH_H

#include <stddef.h>
#include <stdint.h>

/* The first position in v[lo..hi) whose value is not below x (hi when
 * there is none). */
static inline size_t lower_bound_i64(const int64_t *v, size_t lo, size_t hi, int64_t x)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Is x one of the n sorted values of v? */
static inline int sorted_has_i64(const int64_t *v, size_t n, int64_t x)
{
	size_t at = lower_bound_i64(v, 0, n, x);
	return at < n && v[at] == x;
}

/* The first i in [lo, hi) at which past(ctx, i) holds (it holds from
 * some place on), looked for outwards from near in steps that double,
 * then by halving: a few steps when it is near the place found last, as
 * a walk through a sorted column in nearly rising order has it. */
static inline size_t search_from(size_t lo, size_t hi, size_t near, int (*past)(const void *ctx, size_t i),
				 const void *ctx)
{
	size_t h = near < lo ? lo : near > hi ? hi : near, a, b, step = 1;
	if (h == lo || !past(ctx, h - 1)) {
		/* At h or after it: [h, a) is not past, b is hi or past. */
		a = b = h;
		while (b < hi && !past(ctx, b)) {
			a = b + 1;
			b = hi - b > step ? b + step : hi;
			step *= 2;
		}
	} else {
		/* Before h: b is past, a is lo or follows one that is not. */
		a = b = h - 1;
		while (a > lo && past(ctx, a - 1)) {
			b = a - 1;
			a = b - lo > step ? b - step : lo;
			step *= 2;
		}
	}
	while (a < b) {
		size_t mid = a + (b - a) / 2;
		if (past(ctx, mid))
			b = mid;
		else
			a = mid + 1;
	}
	return a;
}

#endif

/* Binary search over sorted 64-bit values (ids, times). */
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

#endif

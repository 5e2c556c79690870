/* Sorting with a context for the comparison (the trace whose columns the
 * sorted indices point into), instead of a static the comparator reads:
 * safe on any thread. */
#ifndef RPDTOP_SORT_H
#define RPDTOP_SORT_H

#include <stdint.h>
#include <stdlib.h>

typedef int (*sort_cmp_fn)(const void *a, const void *b, void *ctx);

static inline void sort_with(void *base, size_t n, size_t size, sort_cmp_fn cmp, void *ctx)
{
	/* glibc's qsort_r: the context is the comparison's last argument. An
	 * empty array may have no base, which qsort_r must not be given. */
	if (n > 1)
		qsort_r(base, n, size, cmp, ctx);
}

/* Sort n signed 64-bit values ascending (a radix sort: no comparisons). */
void sort_int64(int64_t *v, size_t n);

#endif
